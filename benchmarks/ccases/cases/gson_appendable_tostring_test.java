/* wynot Java case: gson 2.9.1 -> 2.10, "Fix #1702: Gson.toJson creates
 * CharSequence which does not implement toString" (pull request #1703):
 * Gson.toJson(Object, Appendable) on an Appendable that is not a Writer
 * handed it a CharSequence over a char buffer whose toString() was
 * Object's ("...Streams$AppendableWriter$CurrentWrite@1b6d3586"); since 2.10
 * every CharSequence it passes has toString() equal to its characters.
 * Exit 0: old behaviour; 1: new; 125: anything else, an exception included
 * (java exits 1 on an uncaught one, which would read as the new behaviour). */
import com.google.gson.Gson;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

public class WynotCaseTest {
    /** An Appendable that is not a Writer: it copies what it is given (through
     * charAt, which both releases implement) and counts the CharSequences
     * whose toString() matches their characters. */
    static final class Recorder implements Appendable {
        final StringBuilder text = new StringBuilder();
        int sequences, rightToString, wrongToString;
        String example;

        public Appendable append(CharSequence csq) {
            return append(csq, 0, csq.length());
        }

        public Appendable append(CharSequence csq, int start, int end) {
            for (int i = start; i < end; i++) {
                text.append(csq.charAt(i));
            }
            sequences++;
            String s = csq.toString();
            if (s != null && s.contentEquals(csq)) {
                rightToString++;
            } else {
                wrongToString++;
                if (example == null) {
                    example = s;
                }
            }
            return this;
        }

        public Appendable append(char c) {
            text.append(c);
            return this;
        }
    }

    public static void main(String[] args) {
        int code;
        try {
            code = check();
        } catch (Throwable t) {
            t.printStackTrace();
            System.out.println("UNRESOLVED: " + t);
            code = 125;
        }
        System.exit(code);
    }

    static int check() {
        Gson gson = new Gson();
        Map<String, Object> doc = new LinkedHashMap<String, Object>();
        doc.put("name", "wynot");
        doc.put("list", Arrays.asList(1, 2));
        doc.put("text", "a \"quoted\" word");
        String expected = "{\"name\":\"wynot\",\"list\":[1,2],\"text\":\"a \\\"quoted\\\" word\"}";
        String viaString = gson.toJson(doc);
        if (!expected.equals(viaString)) {
            System.out.println("UNRESOLVED: toJson gives " + viaString);
            return 125;
        }
        Recorder out = new Recorder();
        gson.toJson(doc, out);
        if (!expected.equals(out.text.toString())) {
            System.out.println("UNRESOLVED: toJson into an Appendable gives " + out.text);
            return 125;
        }
        if (out.sequences == 0) {
            System.out.println("UNRESOLVED: toJson gave the Appendable no CharSequence");
            return 125;
        }
        if (out.wrongToString == 0) {
            System.out.println("FAIL: all " + out.sequences
                    + " CharSequences given to the Appendable have the right toString()");
            return 1;
        }
        if (out.rightToString == 0) {
            System.out.println("PASS: none of the " + out.sequences
                    + " CharSequences given to the Appendable has the right toString(), e.g. "
                    + out.example);
            return 0;
        }
        System.out.println("UNRESOLVED: " + out.rightToString + " CharSequences with the right"
                + " toString(), " + out.wrongToString + " with another, e.g. " + out.example);
        return 125;
    }
}

/* wynot Java case: JSON-java 20201115 -> 20211205, "some bug fixes for
 * similar()" (issues #573 and #611): JSONObject.similar compared numbers with
 * equals, so an Integer 2 and a Double 2.0 differed; since 20211205 numbers
 * are compared by value and the two objects are similar.
 * Exit 0: old behaviour; 1: new; 125: anything else, an exception included
 * (java exits 1 on an uncaught one, which would read as the new behaviour). */
import org.json.JSONObject;

public class WynotCaseTest {
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
        JSONObject doc = new JSONObject("{\"name\": \"x\", \"list\": [1, 2]}");
        if (!doc.similar(new JSONObject("{\"list\": [1, 2], \"name\": \"x\"}"))
                || doc.similar(new JSONObject("{\"list\": [1, 2], \"name\": \"y\"}"))) {
            System.out.println("UNRESOLVED: similar() is wrong on plain documents");
            return 125;
        }
        JSONObject whole = new JSONObject().put("n", 2);
        JSONObject real = new JSONObject().put("n", 2.0);
        if (!(whole.get("n") instanceof Integer) || !(real.get("n") instanceof Double)) {
            System.out.println("UNRESOLVED: put() stores " + whole.get("n").getClass()
                    + " and " + real.get("n").getClass());
            return 125;
        }
        if (!whole.similar(real)) {
            System.out.println("PASS: {n: 2} and {n: 2.0} are not similar");
            return 0;
        }
        System.out.println("FAIL: {n: 2} and {n: 2.0} are similar");
        return 1;
    }
}

// BurntSushi/toml v1.6.0, commit 10fb0a6 "Encode large floats as exponent
// syntax (#441)": "Otherwise round-tripping something like 5e+22 won't work."
// The float 5e22 was encoded with 'f' formatting and ".0" added, as
// 50000000000000000000000.0 (exit 0); it is now encoded with 'g' formatting
// as 5e+22 (exit 1). Anything else (an encoding error, another text, a panic)
// exits 125.
package toml

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(os.Stderr, "panic:", r)
			os.Exit(125)
		}
	}()
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(map[string]float64{"x": 5e22}); err != nil {
		fmt.Fprintln(os.Stderr, "Encode:", err)
		os.Exit(125)
	}
	switch got := buf.String(); got {
	case "x = 50000000000000000000000.0\n":
		fmt.Printf("5e22 encodes as %q (old behaviour)\n", got)
		os.Exit(0)
	case "x = 5e+22\n":
		fmt.Printf("5e22 encodes as %q (new behaviour)\n", got)
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "5e22 encodes as %q: neither behaviour\n", got)
		os.Exit(125)
	}
}

// Masterminds/semver 3.4.0, CHANGELOG.md "Fixed": "#267: Handle pre-releases
// for an "and" group if one constraint includes them". The constraint
// ">=1.0.0-alpha, <2.0.0" names a pre-release in its first part only: before,
// "<2.0.0" refused the pre-release 1.5.0-beta (exit 0); after, the whole
// "and" group admits pre-releases and the version satisfies it (exit 1).
// Anything unexpected (a parse error, a panic) exits 125.
package semver

import (
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
	c, err := NewConstraint(">=1.0.0-alpha, <2.0.0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewConstraint:", err)
		os.Exit(125)
	}
	v, err := NewVersion("1.5.0-beta")
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewVersion:", err)
		os.Exit(125)
	}
	if c.Check(v) {
		fmt.Println("1.5.0-beta satisfies >=1.0.0-alpha, <2.0.0 (new behaviour)")
		os.Exit(1)
	}
	fmt.Println("1.5.0-beta does not satisfy >=1.0.0-alpha, <2.0.0 (old behaviour)")
	os.Exit(0)
}

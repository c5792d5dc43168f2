// Package problem is the shared machinery of the verification errors of
// packages receipt, bundle and discovery (validation and developer-pack errors): the
// sentinel-to-code table each problem carries, and the one rendering of
// a list of problems as an error text. Each package keeps its own public
// types (receipt.Problem, bundle.FileProblem, their VerifyError) because
// their fields differ (a run file, a bundle path); what they had written
// twice lives here.
//
// Errors are matched by their sentinels with errors.Is and by type with
// errors.As, never by the text rendered here.
package problem

import (
	"fmt"
	"strings"
)

// MaxListed is how many problems an error text lists before it summarizes
// the rest as "... and N more".
const MaxListed = 10

// Codes maps each specific sentinel of a package to its stable code.
type Codes[C ~string] map[error]C

// Of returns the code of sentinel ("" for an unknown one).
func (c Codes[C]) Of(sentinel error) C { return c[sentinel] }

// List renders header, ": N problem(s)" and then each problem (as render
// gives it) on its own indented line, continuation lines of a multi-line
// problem indented further, at most max of them followed by
// "... and N more".
func List[E any](header string, ps []E, render func(E) string, max int) string {
	var b strings.Builder
	b.WriteString(header)
	fmt.Fprintf(&b, ": %d problem(s)", len(ps))
	for i, p := range ps {
		if i == max {
			fmt.Fprintf(&b, "\n  ... and %d more", len(ps)-max)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(strings.ReplaceAll(render(p), "\n", "\n    "))
	}
	return b.String()
}

package bundle

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/vera-run/vera/capability"
)

// Bounds on the text Seal copies from the capability into README.md, in
// runes; longer text is cut with an ellipsis (capability.json holds it in
// full).
const (
	readmeNameRunes = 200
	readmeTextRunes = 300
)

// VerifyCommand is the command README.md tells a receiver to run.
const VerifyCommand = "go run github.com/vera-run/vera/examples/verify"

// renderReadme generates README.md: what the capability does, its inputs,
// outputs, allowed origins and state, and how to verify the bundle. It is
// deterministic: the same capability always yields the same bytes.
func renderReadme(c *capability.Capability, execHash string) []byte {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("# %s", oneLine(c.Name, readmeNameRunes))
	line("")
	line("%s", oneLine(c.Goal, readmeTextRunes))
	line("")
	line("This folder is a sealed Vera capability bundle: a typed, reviewable instruction")
	line("package for one business process on one site. It holds the capability, this")
	line("README, the lock that hashes every file, and the sanitized run receipts behind")
	line("its state, nothing else: no credentials, cookies, browser storage, session URLs,")
	line("HTML, screenshots, downloaded files, run outputs or private discovery records.")
	line("The receiving operator connects their own Chrome, signs in personally and runs")
	line("a local validation before relying on it.")
	line("")
	line("## Capability")
	line("")
	line("- ID: `%s`", c.ID)
	line("- Version: `%s`", c.Version)
	line("- State: `%s` (%s)", c.State, stateMeaning(c.State))
	line("- Execution hash: `%s`", execHash)
	line("- Site: %s", oneLine(c.Site.Name, readmeNameRunes))
	line("- Start: `%s`", oneLine(c.Runtime.Start, readmeTextRunes))
	line("- Maximum effect: `%s`", c.Authority.MaxEffect)
	if ids := c.ConsequentialActions(); len(ids) > 0 {
		line("- Consequential actions (confirmed by a person at action time): %s", codeList(ids))
	}
	if v := c.Validation; v != nil {
		line("- Validation: two clean `%s` runs, finalized %s; %s", oneLine(v.ExecutionMode, readmeNameRunes),
			oneLine(v.FinalizedAt, readmeNameRunes), oneLine(v.Claim, readmeTextRunes))
		for _, h := range v.Receipts {
			line("  - receipt `%s`", ReceiptPath(h))
		}
	}
	line("")
	line("## Inputs")
	line("")
	if len(c.Inputs) == 0 {
		line("None.")
	}
	for _, in := range c.Inputs {
		flags := "optional"
		if in.Required {
			flags = "required"
		}
		if in.Secret {
			flags += ", secret: supplied at run time, never stored"
		}
		item := fmt.Sprintf("- `%s` (%s, %s)", in.Name, in.Type, flags)
		if d := oneLine(in.Description, readmeTextRunes); d != "" {
			item += ": " + d
		}
		line("%s", item)
	}
	line("")
	line("Inputs are references: their values stay with the operator and receipts hold")
	line("only their hashes.")
	line("")
	line("## Outputs")
	line("")
	if len(c.Outputs) == 0 {
		line("None.")
	}
	for _, o := range c.Outputs {
		item := fmt.Sprintf("- `%s` (%s, %s)", o.Name, o.Kind, o.Exposure)
		if d := oneLine(o.Description, readmeTextRunes); d != "" {
			item += ": " + d
		}
		line("%s", item)
	}
	line("")
	line("## Allowed origins")
	line("")
	for _, o := range c.Site.AllowedOrigins {
		line("- `%s`", oneLine(o, readmeTextRunes))
	}
	line("")
	line("## Verify before use")
	line("")
	line("Verify the folder offline, with no browser:")
	line("")
	line("    %s <dir>", VerifyCommand)
	line("")
	line("or from Go with `bundle.Verify(ctx, dir)` (package `github.com/vera-run/vera/bundle`).")
	line("Verification checks every file against `%s` (size and SHA-256), rejects", FileLock)
	line("unlisted, unsafe or secret-shaped content, validates the capability and checks")
	line("that the receipts support its state. It proves the files are the sealed ones and")
	line("internally consistent; it does not attest a person, a machine or a website.")
	return []byte(b.String())
}

func stateMeaning(s capability.State) string {
	switch s {
	case capability.StateAuthored:
		return "written by hand and reviewed, with no discovery record; clean replay not yet proven"
	case capability.StateDiscovered:
		return "built from an operator-reviewed discovery; clean replay not yet proven"
	case capability.StateValidatedLocal:
		return "two clean local runs in the sealer's environment; environment-specific evidence, not a portability guarantee"
	}
	return "not portable"
}

func codeList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = "`" + id + "`"
	}
	return strings.Join(q, ", ")
}

// oneLine folds s onto one line (control characters and runs of space
// become one space), trims it and cuts it to at most n runes.
func oneLine(s string, n int) string {
	var b strings.Builder
	space := false
	count := 0
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
			count++
		}
		space = false
		if count >= n {
			b.WriteString("...")
			break
		}
		b.WriteRune(r)
		count++
	}
	return b.String()
}

package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFormatDetectorLists holds the closed lists of FORMAT.md 5.4 equal to
// the sets package bundle applies (read from its source): the HTML
// element names of "HTML tag", the browser storage names and the
// forbidden extensions. A verifier written from the page then flags
// exactly what bundle.Verify flags.
func TestFormatDetectorLists(t *testing.T) {
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := formatSection(string(raw), "5.4")
	if !ok {
		t.Fatal("FORMAT.md has no section 5.4")
	}
	between := func(start, end string) string {
		i := strings.Index(sec, start)
		if i < 0 {
			t.Fatalf("5.4 no longer says %q", start)
		}
		rest := sec[i+len(start):]
		j := strings.Index(rest, end)
		if j < 0 {
			t.Fatalf("5.4: %q is not followed by %q", start, end)
		}
		return rest[:j]
	}
	codes := regexp.MustCompile("`([^`]+)`")
	list := func(s string, split bool) []string {
		var out []string
		for _, m := range codes.FindAllStringSubmatch(s, -1) {
			if split {
				out = append(out, strings.Fields(m[1])...)
			} else {
				out = append(out, m[1])
			}
		}
		return sortedUnique(out)
	}
	check := func(what string, page, code []string) {
		if !slices.Equal(page, code) {
			t.Errorf("FORMAT.md 5.4 %s differ from package bundle's:\n page %q\n code %q", what, page, code)
		}
	}
	check("HTML element names", list(between("of an HTML element name (exactly these:", "; HTML elements whose"), true),
		goSet(t, "../bundle", "htmlTags"))
	check("browser storage names", list(between("browser storage names", "(this list is complete)"), false),
		goSet(t, "../bundle", "storageNames"))
	exts := list(between("or a name ending in one of the extensions", "(`a.png`"), true)
	var goExts []string
	for _, v := range goSet(t, "../bundle", "forbiddenExts") {
		if strings.HasPrefix(v, ".") {
			goExts = append(goExts, v)
		}
	}
	check("forbidden extensions", exts, sortedUnique(goExts))
}

package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/locator"
)

// TestFormatRoleList holds the role list of FORMAT.md 3.2 ("Roles", the
// line after <!-- roles -->) equal to locator.Roles().
func TestFormatRoleList(t *testing.T) {
	page, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(page), "<!-- roles -->\n")
	if !ok {
		t.Fatal("FORMAT.md has no <!-- roles --> marker")
	}
	line, _, _ := strings.Cut(after, "\n")
	var got []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(line, -1) {
		got = append(got, m[1])
	}
	if want := locator.Roles(); !slices.Equal(got, want) {
		t.Errorf("FORMAT.md role list = %v\nwant locator.Roles() = %v", got, want)
	}
}

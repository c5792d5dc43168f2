package vera_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeSnippetsCompile keeps README.md honest: every ```go block must
// appear, line for line (ignoring indentation), in example_test.go, which
// compiles with the tests.
func TestReadmeSnippetsCompile(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	body := norm(string(src))
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("README.md has %d Go snippets, want at least 3 (host agents, tooling authors, unit tests)", len(blocks))
	}
	for i, b := range blocks {
		if !strings.Contains(body, norm(b[1])) {
			t.Errorf("README.md Go snippet %d is not in example_test.go verbatim:\n%s", i+1, b[1])
		}
	}
}

// TestReadmeStartsWithTheTwoCommands checks the README's promise: the
// quickstart and the test command come first.
func TestReadmeStartsWithTheTwoCommands(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	q := strings.Index(s, "go run ./examples/quickstart")
	g := strings.Index(s, "go test ./...")
	first := strings.Index(s, "```go")
	if q < 0 || g < 0 || q > first || g > first {
		t.Fatalf("README.md must show `go run ./examples/quickstart` and `go test ./...` before anything else (at %d, %d; first snippet at %d)", q, g, first)
	}
}

package tool_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime/tool"
)

// TestInputSchemaOmitsSecretRefInputs: an input whose value comes from a
// declared secret is not a parameter of the tool.
func TestInputSchemaOmitsSecretRefInputs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "capability", "testdata", "valid", "portal_sign_in.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tool.InputSchema(c)
	if err != nil {
		t.Fatal(err)
	}
	props, _ := s["properties"].(map[string]any)
	if _, ok := props["password"]; ok {
		t.Errorf("password (secret_ref) is a tool parameter: %v", props)
	}
	if _, ok := props["username"]; !ok {
		t.Errorf("username missing: %v", props)
	}
}

package bundle_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
)

// TestSealSecretsAndSeed: a capability that declares secrets and seeds
// state travels: Seal and Verify accept it (its references are names,
// not credentials: the seeded value's member is secret_ref, which the
// credential-field scan does not read as a credential).
func TestSealSecretsAndSeed(t *testing.T) {
	for _, name := range []string{"portal_session.json", "portal_sign_in.json"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "capability", "testdata", "valid", name))
			if err != nil {
				t.Fatal(err)
			}
			c, err := capability.ParseBytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(t.TempDir(), "b")
			if _, err := bundle.Seal(context.Background(), dst, c, nil); err != nil {
				t.Fatalf("Seal: %v", err)
			}
			rep, err := bundle.Verify(context.Background(), dst)
			if err != nil {
				t.Fatalf("Verify: %v (%+v)", err, rep)
			}
		})
	}
}

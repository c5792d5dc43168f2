package bundle_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/vera-run/vera/bundle"
)

// Seal a discovered capability (one without receipts) and list what the
// lock covers. A validated_local capability is sealed the same way with
// the run directories receipt.Finalize promoted it from.
func ExampleSeal() {
	parent, err := os.MkdirTemp("", "bundle-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(parent)
	c := testCapability() // a discovered *capability.Capability

	dst := filepath.Join(parent, "teller.read-balance")
	lock, err := bundle.Seal(context.Background(), dst, c, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lock.Schema, lock.Algorithm, lock.Capability.ID, lock.Capability.Version)
	for _, f := range lock.Files {
		fmt.Println(f.Path)
	}

	// Seal never overwrites.
	_, err = bundle.Seal(context.Background(), dst, c, nil)
	fmt.Println(errors.Is(err, os.ErrExist))
	// Output:
	// browser-capability-lock/v1 sha256 teller.read-balance 1.0.0
	// README.md
	// capability.json
	// true
}

// Verify a received bundle. The report lists every problem, not only the
// first; here a screenshot was slipped into the folder.
func ExampleVerify() {
	parent, err := os.MkdirTemp("", "bundle-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(parent)
	dir := filepath.Join(parent, "received")
	if _, err := bundle.Seal(context.Background(), dir, testCapability(), nil); err != nil {
		log.Fatal(err)
	}

	rep, err := bundle.Verify(context.Background(), dir)
	fmt.Println("clean:", err == nil, rep.Valid, rep.Verified.ID)

	if err := os.WriteFile(filepath.Join(dir, "screen.png"), []byte("\x89PNG\r\n\x1a\n"), 0o600); err != nil {
		log.Fatal(err)
	}
	rep, err = bundle.Verify(context.Background(), dir)
	fmt.Println("tampered:", errors.Is(err, bundle.ErrUnlisted), rep.Unlisted)
	for _, p := range rep.Forbidden {
		fmt.Println(p)
	}
	// Output:
	// clean: true [README.md capability.json] teller.read-balance
	// tampered: true [screen.png]
	// screen.png: "screen.png" is an image or screenshot [forbidden]
}

// CheckPath is the path rule of a single lock entry; CheckPaths adds the
// rules of the set, such as case-fold collisions.
func ExampleCheckPath() {
	for _, p := range []string{"receipts/ab.json", "../etc/passwd", "/abs", "a//b", "NUL.txt", "name.", "caf\u00e9.md"} {
		fmt.Printf("%-18q %v\n", p, bundle.CheckPath(p) == nil)
	}
	fmt.Println(bundle.CheckPaths([]string{"README.md", "readme.md"}) != nil)
	fmt.Println(bundle.CheckPaths([]string{"a", "a/b"}) != nil)
	// Output:
	// "receipts/ab.json" true
	// "../etc/passwd"    false
	// "/abs"             false
	// "a//b"             false
	// "NUL.txt"          false
	// "name."            false
	// "café.md"          false
	// true
	// true
}

package safefs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/vera-run/vera/internal/safefs"
)

func ExampleWriteFileAtomic() {
	dir, _ := os.MkdirTemp("", "safefs-example-")
	defer os.RemoveAll(dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer root.Close()

	fmt.Println(safefs.WriteFileAtomic(root, "run.receipt.json", []byte(`{"schema":"browser-run-receipt/v3"}`)))
	err = safefs.WriteFileAtomic(root, "run.receipt.json", []byte(`{}`))
	fmt.Println(errors.Is(err, fs.ErrExist))
	fi, _ := root.Stat("run.receipt.json")
	fmt.Println(fi.Mode().Perm())
	// Output:
	// <nil>
	// true
	// -rw-------
}

func ExampleNewRunDir() {
	base, _ := os.MkdirTemp("", "safefs-example-")
	defer os.RemoveAll(base)
	repo := filepath.Join(base, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o700)

	_, err := safefs.NewRunDir(repo, "run-")
	fmt.Println(errors.Is(err, safefs.ErrInGitWorkTree))

	dir, err := safefs.NewRunDir(base, "run-")
	if err != nil {
		fmt.Println(err)
		return
	}
	fi, _ := os.Stat(dir)
	fmt.Println(fi.Mode().Perm())
	// Output:
	// true
	// -rwx------
}

func ExampleHashFile() {
	dir, _ := os.MkdirTemp("", "safefs-example-")
	defer os.RemoveAll(dir)
	safefs.WriteFile(dir, "capability.json", []byte("abc"))
	root, _ := os.OpenRoot(dir)
	defer root.Close()

	digest, size, err := safefs.HashFile(root, "capability.json", 1<<20)
	fmt.Println(digest, size, err)
	// Output:
	// sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad 3 <nil>
}

func ExampleReadFileLimited() {
	dir, _ := os.MkdirTemp("", "safefs-example-")
	defer os.RemoveAll(dir)
	safefs.WriteFile(dir, "README.md", []byte("# Bundle\n"))
	root, _ := os.OpenRoot(dir)
	defer root.Close()

	data, err := safefs.ReadFileLimited(root, "README.md", 64)
	fmt.Printf("%q %v\n", data, err)
	_, err = safefs.ReadFileLimited(root, "README.md", 4)
	fmt.Println(errors.Is(err, safefs.ErrTooLarge))
	// Output:
	// "# Bundle\n" <nil>
	// true
}

func ExampleIsTempName() {
	fmt.Println(safefs.IsTempName(".outputs.json.tmp-9f2c4e6a1b3d5f70"))
	fmt.Println(safefs.IsTempName("outputs.json"))
	// Output:
	// true
	// false
}

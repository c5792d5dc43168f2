package download_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/download"
)

// The directory route: lock and snapshot, let the browser save the file,
// then wait for exactly one new settled file and hash it.
func ExampleBegin() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "downloads")
	defer os.RemoveAll(dir)

	w, err := download.Begin(ctx, dir, download.WithSettle(50*time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()

	// Stand-in for the browser: the click saves a partial file, then renames it.
	part := filepath.Join(dir, "invoice.csv.crdownload")
	_ = os.WriteFile(part, []byte("abc"), 0o600)
	_ = os.Rename(part, filepath.Join(dir, "invoice.csv"))

	f, err := w.Wait(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(f.Path), f.Size, f.SHA256)
	fmt.Println(f.Mechanism, f.Evidence)
	// Output:
	// invoice.csv 3 sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	// directory download-directory-bytes-verified
}

// Failures carry a sanitized reason code; the local detail is separate.
func ExampleWatch_Wait_concurrentArrival() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "downloads")
	defer os.RemoveAll(dir)

	w, err := download.Begin(ctx, dir, download.WithSettle(50*time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	_ = os.WriteFile(filepath.Join(dir, "a.csv"), []byte("a"), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "b.csv"), []byte("b"), 0o600)

	_, err = w.Wait(ctx)
	fmt.Println(errors.Is(err, download.ErrConcurrentArrival))
	fmt.Println(download.ReasonOf(err))
	fmt.Println(err) // safe for receipts: no names, no paths
	// Output:
	// true
	// download_concurrent_arrival
	// download: wait: download_concurrent_arrival
}

// The browser-path route: the provider-owned browser saved the download
// under its GUID (Browser.setDownloadBehavior "allowAndName").
func ExampleVerifyPath() {
	dir, _ := os.MkdirTemp("", "provider-downloads")
	defer os.RemoveAll(dir)
	guid := "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e"
	_ = os.WriteFile(filepath.Join(dir, guid), []byte("abc"), 0o600)

	f, err := download.VerifyPath(context.Background(), dir, guid, download.WithSettle(20*time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Size, f.SHA256, f.Mechanism, f.Evidence)
	// Output:
	// 3 sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad browser_path download-browser-path-bytes-verified
}

// The download-set hash covers ordered byte lengths and file hashes only.
func ExampleSetHash() {
	files := []download.File{
		{Path: "/home/ana/Downloads/invoice.csv", Size: 3, SHA256: "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	h, err := download.SetHash(files)
	if err != nil {
		fmt.Println(err)
		return
	}
	files[0].Path = `C:\Users\ben\Downloads\invoice (1).csv`
	h2, _ := download.SetHash(files)
	fmt.Println(h == h2)
	// Output:
	// true
}

func ExampleIsPartial() {
	for _, name := range []string{"Unconfirmed 812.crdownload", "report.csv.part", "report.csv", "report (1).csv"} {
		fmt.Println(name, download.IsPartial(name))
	}
	// Output:
	// Unconfirmed 812.crdownload true
	// report.csv.part true
	// report.csv false
	// report (1).csv false
}

func ExampleReasons() {
	for _, r := range download.Reasons()[:3] {
		fmt.Println(r, r.Valid())
	}
	// Output:
	// download_event_missing true
	// download_timeout true
	// download_ambiguous true
}

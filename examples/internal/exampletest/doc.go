// Package exampletest is the test plumbing the example programs share: a
// TestMain that proves no browser process, goroutine or temporary file
// outlived the tests, and the rule for skipping without a browser.
//
// Invariants:
//   - Main gives the test binary a private TMPDIR. Every browser profile an
//     example starts (browser.Launch and browser.StartLocal both create them
//     under os.TempDir()) lives there, so a process that names it on its
//     command line after the tests is a leaked browser process.
//   - Main fails the binary (exit status 1) when such a process, a leaked
//     goroutine (goleak) or a temporary entry remains, even if every test
//     passed; it kills leftover processes so the machine stays usable.
//   - RequireBrowser skips when no browser is found, unless
//     VERA_REQUIRE_BROWSER=1, when it fails instead.
package exampletest

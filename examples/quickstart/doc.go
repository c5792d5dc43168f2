// Command quickstart does Vera's main job end to end with no arguments:
//
//	go run ./examples/quickstart [-browser PATH] [-out DIR]
//
// It serves the synthetic teller console on loopback, starts a local
// Chromium as the "operator's browser" (a separate process with a DevTools
// port, started with the public browser.StartLocal) and connects to it with browser.Connect, so runs are honestly
// live_connected_chrome. It loads the reviewed teller capability
// (teller.capability.json, state authored: hand-written and reviewed; its placeholder origin is
// rewritten to the served site's origin at load time), runs it twice with
// the same typed inputs while printing progress, promotes it to
// validated_local with receipt.Finalize, seals a bundle with bundle.Seal,
// verifies it with bundle.Verify and prints a summary. The exit status is
// 0 only if everything held.
//
// Invariants:
//   - Runs are live_connected_chrome because they are: the browser is a
//     separate process the program attaches to with browser.Connect, one
//     new browser context per run, never browser.Launch.
//   - The exit status is 0 only when both runs completed cleanly, Finalize
//     promoted the capability, Seal wrote the bundle and Verify accepted it
//     (with the expected id and execution hash).
//   - The operator browser and every process it started are killed, and its
//     profile deleted, when run returns: at the end, on any error and on
//     Ctrl-C (SIGINT or SIGTERM cancel ctx).
//   - Runs and the bundle go to -out (a new or empty folder) or by default
//     to a new folder under os.TempDir(): run directories are refused inside
//     a Git work tree, so the default never writes into the checkout.
//
// Decisions where the brief was silent:
//   - Both runs use the same inputs, since Finalize requires equal outputs.
//   - The bundle is named <id>-<version>.bundle inside the output folder;
//     -out must be new or empty so that Seal, which never overwrites,
//     cannot collide with an earlier bundle.
//   - The credentials are synthetic constants: the console accepts any
//     non-empty pair.
package main

// Package chromeproc is Vera's one Chromium launcher. runtime/browser's
// Launch (a provider-owned browser) and StartLocal (the public stand-in
// for an operator's own browser, which browser.Connect attaches to) both
// start the browser through [Start], with the one flag list
// [DefaultFlags]; the browser driver's own tests and the benchmark
// programs use it directly. Programs outside this module use
// runtime/browser.StartLocal.
//
// Start finds the executable ([Find]: an explicit path, else the
// VERA_BROWSER environment variable, else its own list of the usual install locations, LookPath), starts
// it headless with a fresh profile and --remote-debugging-port=0, waits for
// the DevTools endpoint and returns a [Process]. [Process.Endpoint] is the
// browser's ws:// URL and [Process.HTTPEndpoint] its http:// form; both are
// accepted by browser.Connect.
//
// Invariants:
//   - Nothing is downloaded: without a browser Start fails with an error
//     wrapping [ErrNotFound] (and runtime.ErrBrowserUnavailable) that names
//     what to install ([InstallHint]).
//   - Every process the browser starts is in its own process group, and
//     every one of them names the process's private temporary directory
//     ([Process.Dir]) on its command line (the profile is inside it).
//     [Process.Close] kills the group, then anything that still names that
//     directory (helpers that left the group), waits for the browser, and
//     deletes the directory. It is idempotent and safe to call from any
//     goroutine; after it returns, [CountProcesses] of the directory is zero.
//   - The temporary directory is short (under os.TempDir() when that is
//     short, else /tmp): Chromium's singleton socket lives under TMPDIR and
//     Unix socket paths are limited to 108 bytes.
//   - The flags are [DefaultFlags] (headless, quiet, DevTools on 127.0.0.1
//     only, no QUIC or non-proxied WebRTC UDP, no sandbox only when running
//     as root) plus the profile and --remote-debugging-port=0. [WithFlags]
//     can add switches, never remove these.
//   - ctx bounds the start only (default [DefaultStartTimeout] when it has
//     no deadline); a canceled start leaves no process and no directory.
//
// Decisions where the brief was silent:
//   - The endpoint is read from the profile's DevToolsActivePort file, which
//     Chromium writes once the port is bound; the browser's stderr is kept
//     only as a bounded tail for error messages.
//   - Close uses SIGKILL at once: the profile is throw-away, so a graceful
//     shutdown would only cost time. A parent killed with SIGKILL cannot run
//     Close: on Linux the browser is started with a parent-death signal
//     (SIGKILL), so the kernel ends it and its helpers follow
//     (TestParentDeathKillsBrowser); elsewhere it keeps running. Either
//     way the directory stays, and its name identifies what to clean up.
//     Linux sends that signal when the thread that started the child
//     exits, and Go ends a thread whose goroutine returned while locked
//     to it (runtime.LockOSThread), so the browser is started and waited
//     for on a goroutine locked to its thread until the browser exits.
//   - EnvBrowser and InstallHint are defined here, once; runtime/browser
//     re-exports them (this package cannot import that one, whose own
//     tests use this package).
//   - The DevToolsActivePort file, not the "DevTools listening on" line
//     of stderr, announces the endpoint for Launch too: stderr then goes
//     to a file, so no pipe (and no copying goroutine) can be held open by
//     a helper that left the process group.
package chromeproc

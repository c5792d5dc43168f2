// Package chromeproc starts a local Chrome or Chromium as a separate,
// externally owned process with a DevTools endpoint: the stand-in for an
// operator's own browser that runtime/browser.Connect attaches to. The
// quickstart, the browser driver's connect tests and the benchmark
// programs use it; library code never does (a library connects to the
// operator's browser, it does not start one).
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
//   - The flags are the quiet ones: headless, no first run, no sandbox only
//     when running as root, no background networking, component updates,
//     sync, crash reporting or GPU. [WithFlags] can add switches, never
//     remove these.
//   - ctx bounds the start only (default [DefaultStartTimeout] when it has
//     no deadline); a canceled start leaves no process and no directory.
//
// Decisions where the brief was silent:
//   - The endpoint is read from the profile's DevToolsActivePort file, which
//     Chromium writes once the port is bound; the browser's stderr is kept
//     only as a bounded tail for error messages.
//   - Close uses SIGKILL at once: the profile is throw-away, so a graceful
//     shutdown would only cost time. A parent killed with SIGKILL cannot run
//     Close; the directory name then identifies what to clean up.
//   - EnvBrowser and InstallHint repeat runtime/browser's values instead of
//     importing that package, so that package's own tests can use this one.
package chromeproc

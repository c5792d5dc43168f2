// Package grant authorizes browser automation (seed 002, issue 17):
// browser automation is not granted by default. An administrator's
// [Ceiling] says what may be automated on this host at all; a [Grant]
// commits, before any browser side effect, exactly what one run may do:
// the executable launched or the CDP endpoint connected to, the origins,
// the environment variable names, the network class of the origins and
// the capability's execution hash. The browser package refuses to launch
// or connect without an authorization ([Authorize]), and the runtime
// refuses a live run its driver's grant does not cover
// ([Authorization.ForRun]); the run's receipt records the grant's
// [Commitment] and digest.
//
// Invariants:
//
//   - The zero [Ceiling] allows nothing; a disabled ceiling refuses every
//     target and every grant, automatic or not.
//   - The ceiling comes from code or from six environment variables
//     ([FromEnv], [EnvNames]): VERA_BROWSER_ENABLED and
//     VERA_BROWSER_AUTO_GRANT are exactly "true" or "false" (unset or
//     empty is false); the four *_JSON variables are one JSON array of
//     strings each (unset or empty is the empty list). Bad JSON, null, a
//     non-string entry, trailing data, a relative or unclean root, a
//     duplicate (after normalization), a malformed endpoint, origin or
//     variable name, more than [MaxEntries] entries or a value over
//     [MaxEnvValueBytes] are [*EnvError] values wrapping [ErrCeiling];
//     every bad variable is reported, not only the first.
//   - Launch accepts only an absolute, clean executable (no "." or ".."
//     element) that resolves, symlinks followed, to an executable regular
//     file strictly inside an allowed root (the root resolved too). The
//     grant commits the resolved path, and [Authorize] resolves it again
//     just before the start: a symlink swapped in between is another
//     executable and is refused.
//   - Connect accepts only an endpoint with an explicit port whose host
//     and port the ceiling lists (http://h:p and ws://h:p are one
//     endpoint). A loopback host is a local endpoint; a ceiling allows a
//     remote one only by listing it (browser.WithRemoteEndpoint is still
//     needed to connect to it).
//   - Origins are parsed and normalized by internal/origin, the one place
//     origins are decided. A grant lists 1 to [MaxEntries] origins,
//     normalized, sorted and unique; each must be in the ceiling's
//     AllowedOrigins.
//   - The network class ([ClassifyHost]) is loopback for internal/origin's
//     three loopback hosts, private for private, shared (100.64/10),
//     link-local, unspecified and other loopback IP literals and for names
//     under .local, .internal, .home.arpa, .lan and .localhost, and public
//     for everything else. DNS names are never resolved. A grant's class
//     is the highest of its origins'; it may not exceed the ceiling's
//     MaxNetwork (by default the highest class of the ceiling's own
//     origins).
//   - A [Grant] value is usable only when a ceiling of this process made
//     or checked it ([Grant.Checked]): a parsed grant document is data
//     until [Ceiling.Check] accepts it, so nobody authorizes a browser by
//     writing JSON.
//   - The grant document (browser-grant/v1) is RFC 8785 canonical JSON
//     ([Grant.JSON]); [Parse] reads it strictly (no unknown, duplicate or
//     missing member). Its digest is the SHA-256 of its [Commitment]: the
//     document with the target replaced by target_sha256, the SHA-256 of
//     the executable path's or endpoint URL's exact bytes. Receipts hold
//     the commitment and the digest, so no local path or private endpoint
//     enters evidence, and a verifier recomputes the digest from the
//     receipt alone.
//   - Every error wraps one of [ErrCeiling], [ErrNotGranted],
//     [ErrExceedsCeiling] (an [*ExceedError] naming the field), [ErrNotCovered]
//     or [ErrInvalidGrant]; nothing panics on any input.
//
// Decisions:
//
//   - Home. The package is runtime/grant, not part of runtime/browser,
//     because three packages ask it the same questions: browser (may this
//     target start?), runtime (does this grant cover this capability?)
//     and receipt (is this commitment well formed and does it match the
//     run?). It imports only capability and internal packages, so the
//     offline verifiers can use it without the browser driver.
//   - Two moments. The browser is launched or connected before the
//     capability is known to the runtime, so authorization is split: the
//     target is authorized at launch or connect (an explicit grant, or an
//     auto-grant ceiling), and each run's grant (execution hash and
//     origins) is decided at runtime.Execute. A driver may serve several
//     capabilities: runtime.WithGrant gives a run its own grant for the
//     same target (a shared Browser or a job pool), and an auto-grant
//     ceiling derives one for each run.
//   - Auto-grant derives the grant from the ceiling, the driver's checked
//     target and the capability (its execution hash and allowed origins;
//     no environment names until capabilities reference secrets) and
//     checks it against the ceiling like any other. It is marked
//     "auto": true and recorded in the receipt like an explicit grant.
//   - MaxNetwork has no environment variable (the seed names six): the
//     environment ceiling derives it from its allowed origins, so there a
//     grant can exceed it only through an origin the ceiling does not
//     list. In code it can be set lower (e.g. loopback only while public
//     origins are listed for another purpose).
//   - StartLocal starts a process, so it is a launch and needs a launch
//     authorization. Connecting to such a browser is a connect like any
//     other and needs its endpoint listed.
//   - Any port of a loopback host. A ceiling entry "http://127.0.0.1:*"
//     (also localhost and [::1], any scheme) in AllowedOrigins or
//     CDPEndpoints allows every port of that loopback host. Development
//     and test servers and browsers listen on ports chosen at start, so
//     an exact list cannot be written in advance; the wildcard is refused
//     for every other host, so it never widens the network class beyond
//     loopback. Grants themselves always list exact origins and
//     endpoints. internal/testmain's test ceiling uses it.
package grant

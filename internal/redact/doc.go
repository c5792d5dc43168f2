// Package redact holds Vera's secret and identifier detectors. Discovery uses
// [Identifiers] to redact accessible names, labels and placeholders before
// they leave the browser; receipts and bundles use [FindSecret] and
// [ScanJSON] to reject credential-shaped content.
//
// Invariants:
//
//   - Detectors are hand-written linear scans over ASCII shapes; there are no
//     regular expressions and no backtracking. Bytes outside ASCII are
//     separators, never part of a match, so [Marker] ("⟦redacted⟧") can
//     never be matched, in whole or in part.
//   - [Identifiers] is a fixed point: redacting twice equals redacting once,
//     and [ContainsIdentifier] of its output is false. It never panics and
//     passes invalid UTF-8 through.
//   - [FindSecret] and [ScanJSON] never return the secret: only its kind and
//     (for JSON) its path.
//   - Detection is best effort and tuned against false positives on the
//     near misses listed below; a match is evidence of a shape, not proof.
//   - Every rule is linear in the input (values and headers are judged on
//     their first 256 bytes, nested URLs are followed two levels deep), so
//     hostile input cannot make a scan quadratic.
//
// Decisions where the specification is silent:
//
//   - Kinds are plain strings (constants KindXxx and SecretXxx) so that
//     callers can store them in their own documents unchanged.
//   - [FindIdentifiers] exposes the spans and kinds behind [Identifiers]
//     for callers that must report what was withheld (for example a dynamic
//     test ID) without keeping the value.
//   - Only the digits of a digit run inside a word are replaced, so a test
//     ID keeps its readable part ("row-⟦redacted⟧").
//   - URL paths get one more rule ([PathIdentifiers]): a segment with two
//     or more digits, or with digits and no letter, is a record key and is
//     replaced whole ("/clients/C00103" -> "/clients/⟦redacted⟧", kind
//     path_segment); a single digit among letters ("v2", "2fa", "utf-8")
//     stays. Free text keeps the six-digit threshold: "Room 12" is not an
//     identifier, "/rooms/12" is.
//   - A Luhn-invalid 16-digit number written in groups is not redacted (it
//     is not card-shaped in the strict sense and nothing else matches it);
//     written as one run it is still a digit run.
//
// # Identifiers
//
// A "word boundary" below means the start or end of the string or a byte
// that is not an ASCII letter or digit. The detectors, in precedence order
// (kind in parentheses):
//
//  1. Tokens (token): a JWT ("eyJ" + base64url, at least 10 characters, ".",
//     at least 4 base64url characters, ".", optional signature); a
//     known-prefix credential at a word start (sk-, sk_live_, sk_test_,
//     rk_live_, rk_test_, ghp_, gho_, ghu_, ghs_, ghr_, github_pat_, glpat-,
//     xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, AIza + 35, AKIA/ASIA + exactly 16
//     upper-case letters or digits); the credential after the word
//     "Bearer" (any case) if it has 16+ token68 characters including a
//     digit (the word "Bearer" itself is kept); and a high-entropy string:
//     a maximal run of [A-Za-z0-9+/_-] (plus up to two "=") of 24+
//     characters that contains a digit and a letter and either is
//     hexadecimal with at least 8 distinct characters, or has upper-case,
//     lower-case and digits, at most max(2, n/10) of "+/_-", a class change
//     (digit/upper/lower/symbol) between at least 40% of adjacent
//     characters, fewer than 40% vowels among its letters, and at least
//     min(n/2, 20) distinct characters. camelCase and kebab-case words and
//     URL paths fail these tests; about 5-8% of random 24-character tokens
//     and 1-2% of 40-character ones fail them too.
//  2. E-mail (email): local part of [A-Za-z0-9._%+-], "@", a domain of
//     [A-Za-z0-9.-] with at least one dot, no empty label, and a final
//     label of 2+ letters.
//  3. IBAN (iban): at a word start, two letters, two digits, then letters
//     and digits, optionally grouped by single spaces; 15 to 34 characters;
//     it ends at a group end or a word boundary and must pass the ISO 7064
//     mod-97 check (any case). The longest valid prefix in whole groups
//     wins, so trailing words are left alone.
//  4. UUID (uuid): 8-4-4-4-12 hexadecimal digits between word boundaries.
//  5. Codice fiscale (codice_fiscale): 16 characters between word
//     boundaries, any case, laid out as [A-Z]{6} DD [A-Z] DD [A-Z] DDD [A-Z]
//     where each D is a digit or an omocodia letter (LMNPQRSTUV). The check
//     character is not verified, so that codes with a mistyped check letter
//     are still redacted.
//  6. Numbers. A digit run starts a sequence of digit groups joined by one
//     separator (space, "-", ".", "/"), optionally with one group in
//     parentheses: "(555) 123-4567". A number "starts" where the previous
//     byte is neither alphanumeric nor one of "-_./" (or, inside a
//     sequence, after a plain space) and "ends" where the next byte is
//     neither alphanumeric nor one of "-_/" nor a "." followed by an
//     alphanumeric (or, inside a sequence, before a plain space).
//     - Payment card (payment_card): 13 to 19 digits, Luhn-valid, either
//     one run or groups of 3 to 6 digits joined by a single kind of
//     separator (space or dash).
//     - US SSN (us_ssn): ddd-dd-dddd.
//     - Phone (phone): "+" (not preceded by a letter or digit) or "00",
//     then 9 to 15 digits in all, any joints; Italian mobiles starting
//     with 3 grouped 3-3-4, 3-7, 3-4-3 or 3-3-2-2; North American
//     numbers ddd ddd dddd (first digit 2-9, with the area code optionally
//     in parentheses); Italian landlines: 0, a non-zero digit and up to 2
//     more digits, then one group of 5-8 digits or two of 3-4 digits, 9 to
//     11 digits in all.
//     - Partita IVA (partita_iva): a run of exactly 11 digits with a valid
//     check digit, with an "IT" prefix written against it if present.
//     - Digit run (digit_run): any run of 6 or more consecutive digits,
//     wherever it is, even inside a word ("row-1234567" becomes
//     "row-⟦redacted⟧"). Only the digits are replaced.
//
// Overlapping candidates are merged into a single replacement. The kind
// reported by [FindIdentifiers] is that of the candidate that starts first;
// on a tie the longest, then the one earliest in the list above. Only
// [FindIdentifiers] exposes kinds; [Identifiers] only counts replacements.
//
// Near misses that stay unchanged: prices ("€ 1.234,56", "$12,480.55",
// "1,204.10"), dates ("2026-11-30", "30/11/2026", "30.11.2026"), times
// ("14:05"), short codes ("INV-2041", "A12", "Q3"), percentages, years,
// page counters ("Page 1 of 3"), ordinary and camelCase words, and numbers
// of at most 5 digits that do not form one of the shapes above. An
// 8-digit date written without separators ("20261130") is a digit run and
// is redacted.
//
// # Secrets
//
// [FindSecret] tries these rules in order and returns the kind of the first
// that matches (the same order as [SecretKinds]):
//
//   - private_key: a PEM armour line "-----BEGIN <label>-----" whose label
//     contains "PRIVATE KEY" (RSA, EC, OPENSSH, ENCRYPTED, PGP ...).
//   - jwt, aws_access_key, api_key: the JWT and known-prefix rules of the
//     token detector above.
//   - authorization_header: "Authorization" or "Proxy-Authorization" (any
//     case, optionally quoted), ":", then a known scheme (Bearer, Basic,
//     Token, Digest, Negotiate, NTLM, AWS4-HMAC-SHA256, ApiKey, HOBA,
//     Mutual, VAPID, SCRAM-SHA-256, DPoP) followed by a credential, or a
//     single opaque value of 16+ characters.
//   - cookie_header: "Cookie:" or "Set-Cookie:" (any case) followed by
//     name=value.
//   - url_credentials: scheme://user:password@host with a password, or a
//     user part that is itself a token.
//   - url_query_credential: a URL whose query or fragment has a parameter
//     named like a credential (the names below, or exactly key, code, auth,
//     sig, signature, jwt, ticket, pwd, pass, X-Amz-Signature,
//     X-Amz-Credential, X-Amz-Security-Token) with a value, or any
//     parameter value that is itself a token.
//   - credential_assignment: name=value where the name ends, at a "_", "-"
//     or "." boundary or as a whole, with password, passwd, passphrase,
//     secret, token, api_key, apikey, api-key, session, sessionid,
//     session_id, sid, private_key, credential or credentials (so
//     "csrf_token=" and "DB_PASSWORD=" match, "max_tokens=" does not),
//     with a value of 3+ characters. Only "=" assigns: "Password: required"
//     in prose is not a secret.
//   - bearer_token: "Bearer" followed by 8+ token68 characters including a
//     digit.
//   - high_entropy_token: the high-entropy rule above with a minimum of 32
//     characters, excluding hexadecimal strings and runs starting with
//     "sha1-", "sha256-", "sha384-" or "sha512-" (subresource integrity).
//
// A value that is a placeholder never counts: empty, [Marker], "***" or
// other masks of *, x, X, • and dots, "null", "none", "true", "false",
// "redacted" and its bracketed forms, "<...>", "${...}", "{{...}}",
// "%(...)" and "$ENV_VAR" references.
//
// Deliberately not flagged: "sha256:" + 64 hex digits (Vera documents are
// full of them) and hexadecimal strings in general (digests, commit ids,
// run ids), UUIDs, RFC 3339 timestamps, semantic versions, user agents,
// URLs without query or fragment ("https://bank.example/members"), and
// [Marker] itself. Hexadecimal credentials are still caught in a
// credential context (assignment, header, query parameter, JSON member).
//
// [ScanJSON] applies [FindSecret] to every member name and string value.
// In addition, a string value whose member name is, case-insensitively and
// with "-" read as "_", one of password, passwd, pwd, passphrase, secret,
// client_secret, api_key, apikey, x_api_key, access_token, refresh_token,
// id_token, auth_token, token, session_token, sessionid, session_id,
// cookie, set_cookie, authorization, proxy_authorization, private_key,
// aws_secret_access_key or credentials, and which is not a placeholder, is
// reported as credential_field. Bare "session" and "sid" members are not,
// because they are common non-secret metadata in JSON.
package redact

package capability

// Corpus cases of secret references and seeded state (issue 17, seed
// 002), derived from the two portal capabilities.
func init() {
	validFiles["portal_sign_in"] = "portal_sign_in.json"
	validFiles["portal_session"] = "portal_session.json"
	pub := func(s string) *string { return &s }
	const portal = "http://127.0.0.1:4050"
	corpusCases = append(corpusCases,
		corpusCase{name: "secret_undeclared", base: "portal_session", code: CodeUndeclaredSecret, note: "a seeded storage value refers to a secret that is not declared",
			edit: func(c *Capability) {
				c.Seed.LocalStorage = append(c.Seed.LocalStorage, SeedStorage{Origin: portal, Key: "portal.theme", Value: SeedValue{SecretRef: "portal_theme"}})
			}},
		corpusCase{name: "secret_unused", base: "portal_sign_in", code: CodeUnusedSecret, note: "a declared secret no input or seeded value refers to",
			edit: func(c *Capability) {
				c.Secrets = append(c.Secrets, Secret{Name: "spare_password", Env: "PORTAL_SPARE_PASSWORD"})
			}},
		corpusCase{name: "secret_duplicate_name", base: "portal_sign_in", code: CodeDuplicateSecret, note: "two secrets share a name",
			edit: func(c *Capability) {
				c.Secrets = append(c.Secrets, Secret{Name: "portal_password", Env: "PORTAL_OTHER_PASSWORD"})
			}},
		corpusCase{name: "secret_duplicate_env", base: "portal_sign_in", code: CodeDuplicateSecret, note: "two secrets read the same environment variable",
			edit: func(c *Capability) {
				c.Secrets = append(c.Secrets, Secret{Name: "second_password", Env: "PORTAL_PASSWORD"})
				c.Inputs = append(c.Inputs, Input{Name: "second", Type: InputString, Secret: true, SecretRef: "second_password"})
				a := *action(c, "fill-password")
				a.ID, a.Input = "fill-second", "second"
				m := milestone(c, "sign-in")
				m.Actions = append(m.Actions[:2], append([]Action{a}, m.Actions[2:]...)...)
			}},
		corpusCase{name: "secret_env_malformed", base: "portal_sign_in", code: CodeInvalidSecretEnv, note: "an env name with lower-case letters and a hyphen",
			edit: func(c *Capability) { c.Secrets[0].Env = "portal-password" }},
		corpusCase{name: "secret_env_reserved", base: "portal_sign_in", code: CodeSecretEnvReserved, note: "a secret read from LD_PRELOAD, a variable that configures the process",
			edit: func(c *Capability) { c.Secrets[0].Env = "LD_PRELOAD" }},
		corpusCase{name: "secret_env_vera", base: "portal_sign_in", code: CodeSecretEnvReserved, note: "a secret read from Vera's own browser ceiling configuration",
			edit: func(c *Capability) { c.Secrets[0].Env = "VERA_BROWSER_ALLOWED_ENV_JSON" }},
		corpusCase{name: "secret_ref_not_secret", base: "portal_sign_in", code: CodeInvalidSecretRef, note: "secret_ref on an input that is not secret",
			edit: func(c *Capability) { input(c, "password").Secret = false }},
		corpusCase{name: "secret_ref_required", base: "portal_sign_in", code: CodeInvalidSecretRef, note: "secret_ref on a required input (the host never supplies it)",
			edit: func(c *Capability) { input(c, "password").Required = true }},
		corpusCase{name: "seed_origin_not_allowed", base: "portal_session", code: CodeOriginNotAllowed, note: "a seeded cookie for an origin outside site.allowed_origins",
			edit: func(c *Capability) { c.Seed.Cookies[0].Origin = "http://127.0.0.1:4051" }},
		corpusCase{name: "seed_storage_origin_not_allowed", base: "portal_session", code: CodeOriginNotAllowed, note: "a seeded local storage entry for an origin outside site.allowed_origins",
			edit: func(c *Capability) { c.Seed.LocalStorage[0].Origin = "https://portal.example" }},
		corpusCase{name: "seed_value_both", base: "portal_session", code: CodeInvalidSeedValue, note: "a seeded value that is both a public literal and a secret reference",
			edit: func(c *Capability) { c.Seed.LocalStorage[0].Value.SecretRef = "portal_session" }},
		corpusCase{name: "seed_value_neither", base: "portal_session", code: CodeInvalidSeedValue, note: "a seeded value with neither public nor secret",
			edit: func(c *Capability) { c.Seed.SessionStorage[0].Value = SeedValue{} }},
		corpusCase{name: "seed_value_template", base: "portal_session", code: CodeInvalidSeedValue, note: "a seeded public value with a template",
			edit: func(c *Capability) { c.Seed.SessionStorage[0].Value.Public = pub("{{tab}}") }},
		corpusCase{name: "seed_cookie_credential_literal", base: "portal_session", code: CodeSeedCredentialLiteral, note: "a literal value for a credential-named cookie (auth_token)",
			edit: func(c *Capability) {
				c.Seed.Cookies = append(c.Seed.Cookies, SeedCookie{Origin: portal, Name: "auth_token", Value: SeedValue{Public: pub("x1y2z3")}})
			}},
		corpusCase{name: "seed_storage_credential_literal", base: "portal_session", code: CodeSeedCredentialLiteral, note: "a literal value for a credential-named storage key (session_id)",
			edit: func(c *Capability) {
				c.Seed.LocalStorage = append(c.Seed.LocalStorage, SeedStorage{Origin: portal, Key: "session_id", Value: SeedValue{Public: pub("s1")}})
			}},
		corpusCase{name: "seed_public_credential_shaped", base: "portal_session", code: CodeCredentialLiteral, note: "a credential-shaped public storage value",
			edit: func(c *Capability) {
				c.Seed.LocalStorage[0].Value.Public = pub("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
			}},
		corpusCase{name: "seed_cookie_name_invalid", base: "portal_session", code: CodeInvalidSeedCookie, note: "a cookie name with a space",
			edit: func(c *Capability) {
				c.Seed.Cookies = append(c.Seed.Cookies, SeedCookie{Origin: portal, Name: "portal theme", Value: SeedValue{Public: pub("dark")}})
			}},
		corpusCase{name: "seed_cookie_value_invalid", base: "portal_session", code: CodeInvalidSeedCookie, note: "a cookie value with a semicolon",
			edit: func(c *Capability) {
				c.Seed.Cookies = append(c.Seed.Cookies, SeedCookie{Origin: portal, Name: "portal_theme", Value: SeedValue{Public: pub("dark;light")}})
			}},
		corpusCase{name: "seed_cookie_host_prefix_http", base: "portal_session", code: CodeInvalidSeedCookie, note: "a __Host- cookie on an http origin",
			edit: func(c *Capability) {
				c.Seed.Cookies = append(c.Seed.Cookies, SeedCookie{Origin: portal, Name: "__Host-theme", Value: SeedValue{Public: pub("dark")}})
			}},
		corpusCase{name: "seed_cookie_path_relative", base: "portal_session", code: CodeInvalidSeedCookie, note: "a cookie path that does not start with /",
			edit: func(c *Capability) { c.Seed.Cookies[0].Path = "home" }},
		corpusCase{name: "seed_duplicate_storage", base: "portal_session", code: CodeDuplicateSeed, note: "the same local storage entry seeded twice",
			edit: func(c *Capability) { c.Seed.LocalStorage = append(c.Seed.LocalStorage, c.Seed.LocalStorage[0]) }},
		corpusCase{name: "seed_duplicate_cookie", base: "portal_session", code: CodeDuplicateSeed, note: "the same cookie (origin, path, name) seeded twice, once with the default path",
			edit: func(c *Capability) {
				ck := c.Seed.Cookies[0]
				ck.Path = "/"
				c.Seed.Cookies = append(c.Seed.Cookies, ck)
			}},
	)
}

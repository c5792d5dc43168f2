package jobservice

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/vera-run/vera/internal/safefs"
)

// tokensName is the token file in the state folder; tokensSchema its
// schema.
const (
	tokensName   = "tokens.json"
	tokensSchema = "vera-jobserver-tokens/v1"
	maxTokens    = 4 << 20
)

// tokenEntry is what the service keeps of one run's token: its SHA-256,
// never the token.
type tokenEntry struct {
	SHA256  string    `json:"sha256"`
	Expires time.Time `json:"expires_at"`
	Bundle  string    `json:"bundle,omitempty"`
}

type tokenFile struct {
	Schema string                `json:"schema"`
	Tokens map[string]tokenEntry `json:"tokens"`
}

// tokenStore holds the token hashes, persisted atomically in the state
// folder on every change.
type tokenStore struct {
	dir string
	mu  sync.Mutex
	m   map[string]tokenEntry
}

// loadTokens reads dir's token file (none is an empty store).
func loadTokens(dir string) (*tokenStore, error) {
	ts := &tokenStore{dir: dir, m: map[string]tokenEntry{}}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("jobservice: state folder: %w", err)
	}
	defer root.Close()
	_, _ = safefs.RemoveTemps(root, ".")
	raw, err := safefs.ReadFileLimited(root, tokensName, maxTokens)
	if errors.Is(err, fs.ErrNotExist) {
		return ts, nil
	}
	if err != nil {
		return nil, fmt.Errorf("jobservice: %s: %w", tokensName, err)
	}
	var f tokenFile
	if err := json.Unmarshal(raw, &f); err != nil || f.Schema != tokensSchema {
		return nil, fmt.Errorf("jobservice: %s: not a %s document", tokensName, tokensSchema)
	}
	for id, e := range f.Tokens {
		if len(e.SHA256) == sha256.Size*2 {
			ts.m[id] = e
		}
	}
	return ts, nil
}

// saveLocked writes the store atomically (0600).
func (ts *tokenStore) saveLocked() error {
	b, err := json.MarshalIndent(tokenFile{Schema: tokensSchema, Tokens: ts.m}, "", "  ")
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(ts.dir)
	if err != nil {
		return fmt.Errorf("jobservice: state folder: %w", err)
	}
	defer root.Close()
	if err := safefs.WriteFileAtomicReplace(root, tokensName, append(b, '\n')); err != nil {
		return fmt.Errorf("jobservice: write %s: %w", tokensName, err)
	}
	return nil
}

// add records id's token hash and drops entries expired at now.
func (ts *tokenStore) add(id string, e tokenEntry, now time.Time) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for k, v := range ts.m {
		if !now.Before(v.Expires) {
			delete(ts.m, k)
		}
	}
	ts.m[id] = e
	if err := ts.saveLocked(); err != nil {
		delete(ts.m, id)
		return err
	}
	return nil
}

// keep drops every entry for which known is false and saves when it
// dropped any.
func (ts *tokenStore) keep(known func(id string) bool) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n := len(ts.m)
	for id := range ts.m {
		if !known(id) {
			delete(ts.m, id)
		}
	}
	if len(ts.m) == n {
		return nil
	}
	return ts.saveLocked()
}

// dummyHash is compared against when no entry exists, so a miss costs
// what a hit costs.
var dummyHash = sha256.Sum256([]byte("vera-jobserver: no such run"))

// check reports whether token is id's token, in constant time over the
// hashes, and returns the entry.
func (ts *tokenStore) check(id, token string) (tokenEntry, bool) {
	ts.mu.Lock()
	e, ok := ts.m[id]
	ts.mu.Unlock()
	want := dummyHash[:]
	if ok {
		if b, err := hex.DecodeString(e.SHA256); err == nil && len(b) == sha256.Size {
			want = b
		} else {
			ok = false
		}
	}
	got := sha256.Sum256([]byte(token))
	match := subtle.ConstantTimeCompare(got[:], want) == 1
	return e, ok && match && token != ""
}

// newToken returns a fresh run token and its hex SHA-256.
func newToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	h := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(h[:])
}

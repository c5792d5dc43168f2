package provider

import (
	"context"
	"crypto/sha256"
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

// ErrReplayed is wrapped by [KeyStore.Claim] when the key was claimed
// before. It is a [CodeReplayed] too: errors.Is(err, CodeReplayed) holds.
var ErrReplayed = fmt.Errorf("provider: %w", CodeReplayed)

// KeyStore remembers the idempotency keys of accepted receipts. Claim
// must be atomic: of concurrent claims of one key, exactly one succeeds.
type KeyStore interface {
	// Claim records key with the digest of the receipt that claims it. It
	// returns an error wrapping [ErrReplayed] when key was claimed before
	// (by any receipt), and one wrapping [ErrStore] when it cannot tell.
	Claim(ctx context.Context, key, digest string) error
}

// MemoryStore is an in-memory [KeyStore], safe for concurrent use. The
// zero value is ready. It forgets everything when the process ends; use
// a [FileStore] to survive a restart.
type MemoryStore struct {
	mu   sync.Mutex
	keys map[string]string
}

// Claim implements [KeyStore].
func (m *MemoryStore) Claim(ctx context.Context, key, digest string) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrStore, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.keys[key]; ok {
		return fmt.Errorf("%w: %s", ErrReplayed, key)
	}
	if m.keys == nil {
		m.keys = make(map[string]string)
	}
	m.keys[key] = digest
	return nil
}

// FileStore is a [KeyStore] in a directory: one owner-only file per key,
// named by the sha256 of the key and published atomically without
// replacing (internal/safefs), so claims are exclusive across goroutines,
// processes and restarts. Safe for concurrent use.
type FileStore struct {
	root *os.Root
	now  func() time.Time
}

// fileEntry is the content of one key file.
type fileEntry struct {
	Key       string    `json:"idempotency_key"`
	Digest    string    `json:"receipt_digest"`
	ClaimedAt time.Time `json:"claimed_at"`
}

// OpenFileStore opens (creating it, mode 0700, when missing) the store
// directory dir. Close releases it.
func OpenFileStore(dir string) (*FileStore, error) {
	if dir == "" {
		return nil, fmt.Errorf("%w: empty store directory", ErrInvalidArgument)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	return &FileStore{root: root, now: time.Now}, nil
}

// Close releases the directory. Claims after Close fail with [ErrStore].
func (f *FileStore) Close() error { return f.root.Close() }

func keyFile(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:]) + ".json"
}

// Claim implements [KeyStore].
func (f *FileStore) Claim(ctx context.Context, key, digest string) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrStore, err)
	}
	data, err := json.Marshal(fileEntry{Key: key, Digest: digest, ClaimedAt: f.now().UTC()})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStore, err)
	}
	err = safefs.WriteFileAtomic(f.root, keyFile(key), data)
	switch {
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%w: %s", ErrReplayed, key)
	case err != nil:
		return fmt.Errorf("%w: %w", ErrStore, err)
	}
	return nil
}

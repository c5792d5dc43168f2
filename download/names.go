package download

import "strings"

// LockFileName is the advisory lock file Begin creates (owner-only, empty)
// directly inside the observed folder and locks with flock(2) (LockFileEx on
// Windows). It is never removed, because unlinking a lock file while another
// process waits on it would break mutual exclusion, and it is excluded from
// every snapshot.
const LockFileName = ".vera-download.lock"

// partialSuffixes are the file-name endings browsers use for in-progress
// downloads: Chrome/Edge/Brave (.crdownload, including "Unconfirmed
// NNN.crdownload"), Firefox (.part), Safari (.download, a directory bundle),
// Opera (.opdownload), and generic temporaries (.partial, .tmp).
var partialSuffixes = []string{
	".crdownload",
	".part",
	".partial",
	".download",
	".opdownload",
	".tmp",
}

// partialPrefixes are the hidden temporaries Chromium-based browsers create
// next to a download on Linux and macOS (base::CreateTemporaryFileInDir).
var partialPrefixes = []string{
	".com.google.Chrome.",
	".org.chromium.Chromium.",
	".com.microsoft.Edge.",
}

// IsPartial reports whether name (a single directory entry name, not a path)
// is an in-progress download or browser temporary: it ends with .crdownload,
// .part, .partial, .download, .opdownload or .tmp, or starts with a Chromium
// temporary prefix such as ".com.google.Chrome.". Matching is ASCII
// case-insensitive because download folders are often on case-insensitive
// file systems. A name containing a path separator or NUL is never partial.
func IsPartial(name string) bool {
	if name == "" || strings.ContainsAny(name, "/\\\x00") {
		return false
	}
	for _, s := range partialSuffixes {
		if len(name) >= len(s) && strings.EqualFold(name[len(name)-len(s):], s) {
			return true
		}
	}
	for _, p := range partialPrefixes {
		if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			return true
		}
	}
	return false
}

// ignoredNames are operating-system metadata entries that appear in folders
// on their own and are never a browser download.
var ignoredNames = []string{
	LockFileName,
	".DS_Store",
	".localized",
	"Thumbs.db",
	"desktop.ini",
}

// isIgnored reports whether an entry is invisible to attribution: the lock
// file, OS metadata files, macOS AppleDouble companions ("._name", written on
// non-HFS volumes) and WSL's "name:Zone.Identifier" companions.
func isIgnored(name string) bool {
	for _, n := range ignoredNames {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	if strings.HasPrefix(name, "._") {
		return true
	}
	const zone = ":Zone.Identifier"
	return len(name) > len(zone) && strings.EqualFold(name[len(name)-len(zone):], zone)
}

// MaxGUIDLength is the longest GUID VerifyPath accepts.
const MaxGUIDLength = 128

// validGUID reports whether guid can name a file directly inside a folder
// with no interpretation: 1 to MaxGUIDLength ASCII letters, digits, '-' or
// '_'. Chrome's download GUIDs are lowercase UUIDs, which always pass.
func validGUID(guid string) bool {
	if len(guid) == 0 || len(guid) > MaxGUIDLength {
		return false
	}
	for i := 0; i < len(guid); i++ {
		c := guid[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

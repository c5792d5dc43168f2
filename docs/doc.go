// Package docs holds Vera's format documentation (FORMAT.md) and the test
// that keeps it honest.
package docs

// Package suggest finds what a user probably meant by a misspelt name:
// the known name nearest to it, for a "did you mean" in an error message.
package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// MaxDistance is the largest edit distance (insertions, deletions and
// substitutions of characters) at which a known name is suggested.
const MaxDistance = 2

// Closest returns the known name nearest to name, ignoring case, when it
// is within MaxDistance edits (and fewer edits than name is long, so a
// two-letter name does not suggest any other); ties go to the earliest
// in known. It returns "" when none is near, or when name is known.
func Closest(name string, known []string) string {
	best, bestDist := "", MaxDistance+1
	lower := strings.ToLower(name)
	for _, k := range known {
		if k == name {
			return ""
		}
		d := levenshtein.ComputeDistance(lower, strings.ToLower(k))
		if d < bestDist && d < len([]rune(name)) {
			best, bestDist = k, d
		}
	}
	return best
}

// DidYouMean is Closest as a clause to follow what is wrong: "; did you
// mean beta?", or "" when no known name is near.
func DidYouMean(name string, known []string) string {
	if c := Closest(name, known); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}

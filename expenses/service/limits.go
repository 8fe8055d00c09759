package service

// This file holds the bounds on how much one call may create or list: members per group,
// friends per user, people per expense, and the names an error message lists. The edge
// declares the bounds on inputs as maxItems and maxProperties in the tools' input schemas.

import (
	"fmt"
	"strings"
)

// Bounds on what one user or one call may make, and so on every answer that lists it.
const (
	// MaxGroupMembers is the most people a group holds, its creator, placeholders and
	// invited users included: create_group takes at most MaxGroupMembers-1 other names.
	MaxGroupMembers = 50
	// MaxSplits is the most people an expense is split among.
	MaxSplits = MaxGroupMembers
	// MaxFriends is the most friends a user has, placeholders (people without an account)
	// included: list_friends lists at most this many.
	MaxFriends = 500
	// MaxFriendRequests is the most friend requests a user may have waiting for an answer
	// (add_friend of a name that has not asked back, registered or not).
	MaxFriendRequests = 500
	// MaxListed is the most names or ids an error message lists; it says how many more
	// there are.
	MaxListed = 10
)

// ItemLimits is the most items each list or map parameter accepts, by its JSON name: the
// edge declares these as maxItems (members) and maxProperties (splits).
var ItemLimits = map[string]int{"members": MaxGroupMembers - 1, "splits": MaxSplits}

// checkItems returns an INVALID_INPUT error when the list or map of parameter param holds
// more items than ItemLimits allows.
func checkItems(param string, n int) error {
	max, ok := ItemLimits[param]
	if !ok || n <= max {
		return nil
	}
	return invalid("%s has %d entries; at most %d are allowed", param, n, max)
}

// listSome joins items for a message: at most MaxListed of them, then how many more there
// are ("Anna, Ben, … and 12 more").
func listSome(items []string) string {
	return listFirst(items[:min(len(items), MaxListed)], len(items))
}

// listFirst joins shown, the first of total items, and says how many more there are.
func listFirst(shown []string, total int) string {
	s := strings.Join(shown, ", ")
	if total > len(shown) {
		s += fmt.Sprintf(" and %d more", total-len(shown))
	}
	return s
}

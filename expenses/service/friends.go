package service

// This file holds add_friend: how registered users come to know each other, by consent.

import (
	"context"
	"errors"
	"strings"

	"github.com/bananaqr/bananaqr/expenses/store"
)

// AddFriendInput is the parameters of add_friend.
type AddFriendInput struct {
	Name string `json:"name"`
}

// FriendStatus is the result of add_friend.
type FriendStatus struct {
	Name   string `json:"name" jsonschema:"The name asked for."`
	Status string `json:"status" jsonschema:"friends: the user of that name asked for you too, so you are now friends; requested: when a user of that name adds you, you become friends. The answer does not say whether the name is registered."`
}

// AddFriend is add_friend: the caller asks to be friends with the user of that name. When
// that user has asked for the caller too, both become friends (Status "friends"); otherwise
// the request is kept (Status "requested"), whether or not a user has that name, so the
// answer reveals nothing to someone the user has not asked for.
func (s *Service) AddFriend(ctx context.Context, c Caller, in AddFriendInput) (FriendStatus, error) {
	if err := s.allowWrite(c); err != nil {
		return FriendStatus{}, err
	}
	if err := checkInput(in); err != nil {
		return FriendStatus{}, err
	}
	out, err := s.addFriend(ctx, c, strings.TrimSpace(in.Name))
	return out, toolError(err)
}

func (s *Service) addFriend(ctx context.Context, c Caller, name string) (FriendStatus, error) {
	if name == "" {
		return FriendStatus{}, invalid("name is required: the user name of the person to add")
	}
	if strings.EqualFold(name, "me") || strings.EqualFold(name, c.Name) {
		return FriendStatus{}, invalid("name is you; give another user's name")
	}
	u, err := s.store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return s.requestFriend(ctx, c, name)
	}
	if err != nil {
		return FriendStatus{}, err
	}
	asked, err := s.store.FriendRequested(ctx, u.ID, c.Name)
	if err != nil || !asked {
		if err != nil {
			return FriendStatus{}, err
		}
		return s.requestFriend(ctx, c, name)
	}
	me, err := s.store.UserByID(ctx, c.UserID)
	if err != nil {
		return FriendStatus{}, err
	}
	if err := s.checkFriendRoom(ctx, c.UserID, u.ID); err != nil {
		return FriendStatus{}, err
	}
	if err := s.store.Befriend(ctx, me, u); err != nil {
		return FriendStatus{}, err
	}
	return FriendStatus{Name: name, Status: "friends"}, nil
}

// requestFriend keeps the caller's request to be friends with name, unless the caller already
// has MaxFriendRequests waiting (asking again for a name already asked is no new request).
func (s *Service) requestFriend(ctx context.Context, c Caller, name string) (FriendStatus, error) {
	asked, err := s.store.FriendRequested(ctx, c.UserID, name)
	if err != nil {
		return FriendStatus{}, err
	}
	if !asked {
		n, err := s.store.CountFriendRequests(ctx, c.UserID)
		if err != nil {
			return FriendStatus{}, err
		}
		if n >= MaxFriendRequests {
			return FriendStatus{}, invalid("you have %d friend requests that nobody has answered, the most there may be; wait until some are", n)
		}
	}
	if err := s.store.RequestFriend(ctx, c.UserID, name, s.now()); err != nil {
		return FriendStatus{}, err
	}
	return FriendStatus{Name: name, Status: "requested"}, nil
}

// checkFriendRoom refuses a friendship that would give either user more than MaxFriends
// friends. Only a user who asked for the caller reaches it, so the answer tells the caller
// nothing that user did not agree to show.
func (s *Service) checkFriendRoom(ctx context.Context, userIDs ...string) error {
	for i, id := range userIDs {
		n, err := s.store.CountFriends(ctx, id)
		if err != nil {
			return err
		}
		if n >= MaxFriends {
			who := []string{"you have", "they have"}[min(i, 1)]
			return invalid("%s %d friends, the most allowed (people without an account included); no friendship was made", who, n)
		}
	}
	return nil
}

package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bananaqr/bananaqr/expenses/store"
)

// directory is what one operation knows of the people the caller knows: friends by the
// names the caller gave them, and the members of the caller's groups. It names people in
// outputs and lists them in hints.
type directory struct {
	s       *Service
	c       Caller
	friends map[string]string // person id → name the caller knows them by
	people  map[string]store.Person
	users   map[string]string   // user id → person id
	groups  map[string][]string // person id → names of the caller's groups they are in
	loaded  bool
	refs    map[string]GroupRef // group id → the group, as expenses name it
}

func (s *Service) directory(c Caller) *directory {
	return &directory{s: s, c: c, people: map[string]store.Person{}, users: map[string]string{},
		refs: map[string]GroupRef{}}
}

// groupRef returns a group as an expense names it, reading each group once per operation
// (a page of expenses mostly shares a few groups).
func (d *directory) groupRef(ctx context.Context, id string) (GroupRef, error) {
	if r, ok := d.refs[id]; ok {
		return r, nil
	}
	g, err := d.s.store.GroupByID(ctx, id)
	if err != nil {
		return GroupRef{}, err
	}
	d.refs[id] = GroupRef{ID: g.ID, Name: g.Name}
	return d.refs[id], nil
}

// loadFriends reads the caller's friends once.
func (d *directory) loadFriends(ctx context.Context) error {
	if d.friends != nil {
		return nil
	}
	fs, err := d.s.store.ListFriends(ctx, d.c.UserID)
	if err != nil {
		return err
	}
	d.friends = map[string]string{}
	for _, f := range fs {
		d.friends[f.ID] = f.Name
		d.people[f.ID] = f
	}
	return nil
}

// loadGroups reads the members of all the caller's groups once.
func (d *directory) loadGroups(ctx context.Context) error {
	if d.loaded {
		return nil
	}
	d.groups = map[string][]string{}
	cursor := ""
	for {
		gs, next, err := d.s.store.ListGroups(ctx, d.c.UserID, store.MaxLimit, cursor)
		if err != nil {
			return err
		}
		for _, g := range gs {
			ms, err := d.s.store.Members(ctx, g.ID)
			if err != nil {
				return err
			}
			for _, m := range ms {
				d.groups[m.ID] = append(d.groups[m.ID], g.Name)
				if _, ok := d.people[m.ID]; !ok {
					d.people[m.ID] = m.Person
				}
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	d.loaded = true
	return nil
}

// name returns the name the caller knows a person by: "me" for the caller.
func (d *directory) name(ctx context.Context, personID string) (string, error) {
	if personID == d.c.PersonID {
		return "me", nil
	}
	if err := d.loadFriends(ctx); err != nil {
		return "", err
	}
	if n, ok := d.friends[personID]; ok {
		return n, nil
	}
	p, ok := d.people[personID]
	if !ok {
		var err error
		if p, err = d.s.store.PersonByID(ctx, personID); err != nil {
			return "", err
		}
		d.people[personID] = p
	}
	return p.Name, nil
}

// userName returns the name the caller knows a user by ("me" for the caller).
func (d *directory) userName(ctx context.Context, userID string) (string, error) {
	if userID == d.c.UserID {
		return "me", nil
	}
	pid, ok := d.users[userID]
	if !ok {
		u, err := d.s.store.UserByID(ctx, userID)
		if err != nil {
			return "", err
		}
		pid = u.PersonID
		d.users[userID] = pid
	}
	return d.name(ctx, pid)
}

// describe names a candidate for a hint: "Carl (friend; in Trip, Home)".
func (d *directory) describe(ctx context.Context, p store.Person) (string, error) {
	if err := d.loadFriends(ctx); err != nil {
		return "", err
	}
	if err := d.loadGroups(ctx); err != nil {
		return "", err
	}
	n, err := d.name(ctx, p.ID)
	if err != nil {
		return "", err
	}
	var where []string
	if _, ok := d.friends[p.ID]; ok {
		where = append(where, "friend")
	}
	if gs := d.groups[p.ID]; len(gs) > 0 {
		where = append(where, "in "+listSome(gs))
	}
	if p.UserID == nil {
		where = append(where, "not registered")
	}
	if len(where) > 0 {
		n += " (" + strings.Join(where, "; ") + ")"
	}
	return n, nil
}

// knownNames lists, sorted, the names the caller may use (at most MaxListed, and how many
// more): within members when it is not nil, else of all friends and members of the caller's
// groups.
func (d *directory) knownNames(ctx context.Context, members []store.Member) (string, error) {
	seen := map[string]bool{}
	var names []string
	add := func(id string) error {
		n, err := d.name(ctx, id)
		if err != nil {
			return err
		}
		if !seen[strings.ToLower(n)] {
			seen[strings.ToLower(n)] = true
			names = append(names, n)
		}
		return nil
	}
	if members != nil {
		for _, m := range members {
			if err := add(m.ID); err != nil {
				return "", err
			}
		}
	} else {
		if err := d.loadFriends(ctx); err != nil {
			return "", err
		}
		if err := d.loadGroups(ctx); err != nil {
			return "", err
		}
		if err := add(d.c.PersonID); err != nil {
			return "", err
		}
		for id := range d.friends {
			if err := add(id); err != nil {
				return "", err
			}
		}
		for id := range d.groups {
			if err := add(id); err != nil {
				return "", err
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return listSome(names), nil
}

// resolve finds the one person the caller means by name: "me", a friend, or a member of one
// of the caller's groups; within members when it is not nil (the group of the operation).
// field names the parameter for the message.
func (d *directory) resolve(ctx context.Context, field, name string, members []store.Member) (store.Person, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return store.Person{}, invalid("%s is required: \"me\" or the name of a person you know", field)
	}
	if strings.EqualFold(name, "me") {
		if members != nil && !slices.ContainsFunc(members, func(m store.Member) bool { return m.ID == d.c.PersonID }) {
			return store.Person{}, errorf(ReasonForbidden, "you are not a member of this group")
		}
		return store.Person{ID: d.c.PersonID, Name: d.c.Name, UserID: &d.c.UserID}, nil
	}
	found, err := d.s.store.FindPeopleByName(ctx, d.c.UserID, name)
	if err != nil {
		return store.Person{}, err
	}
	if members != nil {
		in := map[string]bool{}
		for _, m := range members {
			in[m.ID] = true
		}
		found = slices.DeleteFunc(found, func(p store.Person) bool { return !in[p.ID] })
		if len(found) == 0 {
			// A member may be known by another name than the one given to the caller's friend.
			for _, m := range members {
				if strings.EqualFold(m.Name, name) {
					found = append(found, m.Person)
				}
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		known, err := d.knownNames(ctx, members)
		if err != nil {
			return store.Person{}, err
		}
		where := ""
		if members != nil {
			where = " in this group"
		}
		return store.Person{}, invalid("%s: unknown person %q%s; known people: %s", field, name, where, known)
	}
	var cands []string
	for _, p := range found[:min(len(found), MaxListed)] {
		s, err := d.describe(ctx, p)
		if err != nil {
			return store.Person{}, err
		}
		cands = append(cands, s)
	}
	hint := "name the group to narrow it down"
	if members != nil {
		hint = "rename one of them to tell them apart"
	}
	return store.Person{}, invalid("%s: %q is ambiguous, %d people have that name: %s; %s",
		field, name, len(found), listFirst(cands, len(found)), hint)
}

// isGroupID reports whether s has the form of a group's id: 32 hexadecimal digits. Group
// names of that form are refused, so that a name never stands for another group's id.
func isGroupID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// group finds the group the caller means by nameOrID among the caller's groups: by id first
// (an id names one group whoever made it), then by name. A group the caller is not a member
// of is FORBIDDEN; see the package comment. With invitations, a group the caller is invited to
// is found too (marked Invited), for get_group and join_group.
func (s *Service) group(ctx context.Context, c Caller, nameOrID string, invitations bool) (store.Group, error) {
	nameOrID = strings.TrimSpace(nameOrID)
	if nameOrID == "" {
		return store.Group{}, invalid("group is required: the name or id of one of your groups")
	}
	if isGroupID(nameOrID) {
		g, err := s.store.GroupByID(ctx, strings.ToLower(nameOrID))
		if err == nil {
			return s.groupAccess(ctx, c, g, nameOrID, invitations)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return store.Group{}, err
		}
	}
	gs, err := s.store.GroupsByName(ctx, c.UserID, nameOrID)
	if err != nil {
		return store.Group{}, err
	}
	if invitations {
		invited, err := s.store.InvitedGroupsByName(ctx, c.UserID, nameOrID)
		if err != nil {
			return store.Group{}, err
		}
		gs = append(gs, invited...)
	}
	switch {
	case len(gs) == 1:
		return gs[0], nil
	case len(gs) > 1:
		var cands []string
		for _, g := range gs {
			cands = append(cands, fmt.Sprintf("%s (id %s)", g.Name, g.ID))
		}
		return store.Group{}, invalid("group %q is ambiguous, %d of your groups have that name: %s; pass the id instead",
			nameOrID, len(gs), listSome(cands))
	}
	return store.Group{}, errorf(ReasonNotFound, "no group %q; your groups: %s", nameOrID, s.groupNames(ctx, c))
}

// groupAccess returns g, found by its id, if the caller is a member (or, with invitations,
// invited), else FORBIDDEN.
func (s *Service) groupAccess(ctx context.Context, c Caller, g store.Group, asked string, invitations bool) (store.Group, error) {
	ok, err := s.store.IsMember(ctx, c.UserID, g.ID)
	if err != nil || ok {
		return g, err
	}
	invited, err := s.store.IsInvited(ctx, c.UserID, g.ID)
	if err != nil {
		return store.Group{}, err
	}
	if invited && invitations {
		g.Invited = true
		return g, nil
	}
	if invited {
		return store.Group{}, errorf(ReasonForbidden, "you are invited to group %s but not a member: join_group makes you one", asked)
	}
	return store.Group{}, errorf(ReasonForbidden, "you are not a member of group %s; your groups: %s", asked, s.groupNames(ctx, c))
}

// groupNames lists the caller's groups for a hint: at most MaxListed names.
func (s *Service) groupNames(ctx context.Context, c Caller) string {
	gs, next, err := s.store.ListGroups(ctx, c.UserID, MaxListed, "")
	if err != nil || len(gs) == 0 {
		return "none"
	}
	var names []string
	for _, g := range gs {
		names = append(names, g.Name)
	}
	more := ""
	if next != "" {
		more = " and more (see list_groups)"
	}
	return strings.Join(names, ", ") + more
}

package service

import (
	"context"
	"strings"

	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// Group is a group in a list.
type Group struct {
	ID        string `json:"id" jsonschema:"The group's id: 32 hexadecimal digits, random."`
	Name      string `json:"name" jsonschema:"The group's name, unique among its creator's groups."`
	Currency  string `json:"currency" jsonschema:"The group's default currency, an ISO 4217 code."`
	Type      string `json:"type" jsonschema:"The kind of group given at creation, such as travel or home; may be empty."`
	CreatedBy string `json:"createdBy" jsonschema:"Who created the group: \"me\" or the name the caller knows them by."`
	CreatedAt string `json:"createdAt" jsonschema:"When the group was created, RFC 3339 in UTC."`
	Status    string `json:"status" jsonschema:"member: the caller is a member; invited: the caller is invited and join_group makes them a member."`
}

// Member is a member of a group: Weight is their part of the default split, Registered
// whether they have an account (otherwise a placeholder).
type Member struct {
	Name       string `json:"name" jsonschema:"The member: \"me\" or the name the caller knows them by."`
	Registered bool   `json:"registered" jsonschema:"Whether the member has an account; false for a placeholder person."`
	Weight     int64  `json:"weight" jsonschema:"The member's part of the default split (1 each for equal shares)."`
}

// GroupDetails is the result of get_group and create_group. DefaultSplit is "equal" when
// all weights are equal, else "weighted"; members are in join order (the creator first),
// the order in which leftover minor units are assigned.
type GroupDetails struct {
	Group
	Members      []Member `json:"members" jsonschema:"The members in join order, the creator first: the order in which leftover minor units go."`
	DefaultSplit string   `json:"defaultSplit" jsonschema:"How expenses without splits are shared: equal, or weighted by the members' weights."`
	Invited      []string `json:"invited" jsonschema:"The registered users invited who have not joined yet, by name; they become members with join_group."`
}

// ListGroupsInput is the parameters of list_groups (cursor is an addition to spec 4.8).
type ListGroupsInput struct {
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// GroupPage is a page of groups.
type GroupPage struct {
	Groups     []Group `json:"groups" jsonschema:"The caller's groups on this page, by name."`
	NextCursor string  `json:"nextCursor,omitempty" jsonschema:"Pass as cursor for the next page; absent on the last page."`
}

func (s *Service) groupOut(ctx context.Context, d *directory, g store.Group) (Group, error) {
	by, err := d.userName(ctx, g.CreatedBy)
	if err != nil {
		return Group{}, err
	}
	status := "member"
	if g.Invited {
		status = "invited"
	}
	return Group{ID: g.ID, Name: g.Name, Currency: g.Currency, Type: g.Type, CreatedBy: by, CreatedAt: rfc3339(g.CreatedAt),
		Status: status}, nil
}

// ListGroups is list_groups: the caller's groups by name, and the groups the caller is
// invited to among them (status "invited").
func (s *Service) ListGroups(ctx context.Context, c Caller, in ListGroupsInput) (GroupPage, error) {
	if err := checkInput(in); err != nil {
		return GroupPage{}, err
	}
	limit, err := checkLimit(in.Limit)
	if err != nil {
		return GroupPage{}, err
	}
	gs, next, err := s.store.ListGroupsAndInvitations(ctx, c.UserID, limit, in.Cursor)
	if err != nil {
		return GroupPage{}, toolError(err)
	}
	d := s.directory(c)
	out := GroupPage{Groups: []Group{}, NextCursor: next}
	for _, g := range gs {
		o, err := s.groupOut(ctx, d, g)
		if err != nil {
			return GroupPage{}, toolError(err)
		}
		out.Groups = append(out.Groups, o)
	}
	return out, nil
}

// GetGroupInput is the parameters of get_group: the group's name or id.
type GetGroupInput struct {
	Name string `json:"name"`
}

// GetGroup is get_group: one of the caller's groups, or a group the caller is invited to.
func (s *Service) GetGroup(ctx context.Context, c Caller, in GetGroupInput) (GroupDetails, error) {
	if err := checkInput(in); err != nil {
		return GroupDetails{}, err
	}
	g, err := s.group(ctx, c, in.Name, true)
	if err != nil {
		return GroupDetails{}, toolError(err)
	}
	out, err := s.groupDetails(ctx, s.directory(c), g)
	return out, toolError(err)
}

func (s *Service) groupDetails(ctx context.Context, d *directory, g store.Group) (GroupDetails, error) {
	gr, err := s.groupOut(ctx, d, g)
	if err != nil {
		return GroupDetails{}, err
	}
	ms, err := s.store.Members(ctx, g.ID)
	if err != nil {
		return GroupDetails{}, err
	}
	out := GroupDetails{Group: gr, Members: []Member{}, DefaultSplit: "equal", Invited: []string{}}
	for _, m := range ms {
		n, err := d.name(ctx, m.ID)
		if err != nil {
			return GroupDetails{}, err
		}
		out.Members = append(out.Members, Member{Name: n, Registered: m.UserID != nil, Weight: m.Weight})
		if m.Weight != ms[0].Weight {
			out.DefaultSplit = "weighted"
		}
	}
	invited, err := s.store.Invitees(ctx, g.ID)
	if err != nil {
		return GroupDetails{}, err
	}
	for _, p := range invited {
		n, err := d.name(ctx, p.ID)
		if err != nil {
			return GroupDetails{}, err
		}
		out.Invited = append(out.Invited, n)
	}
	return out, nil
}

// CreateGroupInput is the parameters of create_group.
type CreateGroupInput struct {
	Name     string   `json:"name"`
	Currency string   `json:"currency"`
	Type     string   `json:"type,omitempty"`
	Members  []string `json:"members,omitempty"`
}

// CreateGroup is create_group. The caller is the first member. Each member name is a person
// the caller knows: a friend, or a member of one of their groups, else a new placeholder person
// added as the caller's friend, whether or not a user has that name. A person without an
// account becomes a member; a registered user who is the caller's friend (add_friend, asked by
// both) is invited and becomes a member by accepting (join_group); a registered user who is
// not the caller's friend is FORBIDDEN. The group, its placeholders and its invitations are
// made in one transaction.
func (s *Service) CreateGroup(ctx context.Context, c Caller, in CreateGroupInput) (GroupDetails, error) {
	if err := s.allowWrite(c); err != nil {
		return GroupDetails{}, err
	}
	if err := checkInput(in); err != nil {
		return GroupDetails{}, err
	}
	out, err := s.createGroup(ctx, c, in)
	return out, toolError(err)
}

func (s *Service) createGroup(ctx context.Context, c Caller, in CreateGroupInput) (GroupDetails, error) {
	spec, err := s.groupSpec(ctx, c, in)
	if err != nil {
		return GroupDetails{}, err
	}
	d := s.directory(c)
	if err := s.groupMembers(ctx, c, d, in.Members, &spec); err != nil {
		return GroupDetails{}, err
	}
	g, err := s.store.NewGroup(ctx, c.UserID, spec)
	if err != nil {
		return GroupDetails{}, err
	}
	return s.groupDetails(ctx, s.directory(c), g)
}

// groupSpec reads a new group's name, currency and type.
func (s *Service) groupSpec(ctx context.Context, c Caller, in CreateGroupInput) (store.GroupSpec, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return store.GroupSpec{}, invalid("name is required, e.g. \"Trip to Rome\"")
	}
	if isGroupID(name) {
		return store.GroupSpec{}, invalid("name %q has the form of a group id (32 hexadecimal digits); choose a name that does not", name)
	}
	code := strings.TrimSpace(in.Currency)
	if code == "" {
		return store.GroupSpec{}, invalid("currency is required: the group's default ISO 4217 code, such as EUR")
	}
	cur, err := money.ParseCurrency(code)
	if err != nil {
		return store.GroupSpec{}, invalid("currency %q is not an ISO 4217 code such as EUR, USD, JPY", code)
	}
	same, err := s.store.GroupsByName(ctx, c.UserID, name)
	if err != nil {
		return store.GroupSpec{}, err
	}
	for _, g := range same {
		if g.CreatedBy == c.UserID {
			return store.GroupSpec{}, invalid("you already have a group named %q (id %s); choose another name", g.Name, g.ID)
		}
	}
	return store.GroupSpec{Name: name, Currency: cur.Code(), Type: strings.TrimSpace(in.Type)}, nil
}

// groupMembers sorts the names of a new group's members into spec: people without an
// account the caller knows, new placeholders, and the caller's registered friends, who are
// invited. It holds the group to MaxGroupMembers and the caller to MaxFriends.
func (s *Service) groupMembers(ctx context.Context, c Caller, d *directory, names []string, spec *store.GroupSpec) error {
	if err := d.loadFriends(ctx); err != nil {
		return err
	}
	seen, placeholders := map[string]bool{}, map[string]bool{}
	for _, raw := range names {
		n := strings.TrimSpace(raw)
		if n == "" {
			return invalid("members: empty name; give each member's name")
		}
		if strings.EqualFold(n, "me") {
			continue
		}
		found, err := s.store.FindPeopleByName(ctx, c.UserID, n)
		if err != nil {
			return err
		}
		switch {
		case len(found) > 1:
			_, err := d.resolve(ctx, "members", n, nil) // the ambiguity error with candidates
			return err
		case len(found) == 0 && !placeholders[strings.ToLower(n)]:
			// A name the caller does not know is a new placeholder person, never a registered
			// user: users join others' groups only by accepting a friend's invitation.
			placeholders[strings.ToLower(n)] = true
			spec.Members = append(spec.Members, store.NewMember{Placeholder: n})
		case len(found) == 0 || seen[found[0].ID] || found[0].ID == c.PersonID:
		case found[0].UserID == nil:
			seen[found[0].ID] = true
			spec.Members = append(spec.Members, store.NewMember{PersonID: found[0].ID})
		case d.friends[found[0].ID] != "":
			seen[found[0].ID] = true
			spec.Invitees = append(spec.Invitees, found[0].ID)
		default:
			return errorf(ReasonForbidden, "members: %s is registered but not your friend: only friends can be invited to a group "+
				"(add_friend, asked by both), and sharing a group does not make you friends", n)
		}
	}
	if n := 1 + len(spec.Members) + len(spec.Invitees); n > MaxGroupMembers {
		return invalid("members: the group would have %d people; at most %d are allowed, you included", n, MaxGroupMembers)
	}
	if len(placeholders) > 0 {
		have, err := s.store.CountFriends(ctx, c.UserID)
		if err != nil {
			return err
		}
		if have+len(placeholders) > MaxFriends {
			return invalid("members: %d new people without an account would give you %d friends; at most %d are allowed, "+
				"so name people you already know", len(placeholders), have+len(placeholders), MaxFriends)
		}
	}
	return nil
}

// JoinGroupInput is the parameters of join_group.
type JoinGroupInput struct {
	Group string `json:"group"`
}

// JoinGroup is join_group: the caller accepts an invitation to a group and becomes its member
// (last in join order). From then on the group's members may record its expenses with the
// caller, and the caller with them.
func (s *Service) JoinGroup(ctx context.Context, c Caller, in JoinGroupInput) (GroupDetails, error) {
	if err := s.allowWrite(c); err != nil {
		return GroupDetails{}, err
	}
	if err := checkInput(in); err != nil {
		return GroupDetails{}, err
	}
	g, err := s.group(ctx, c, in.Group, true)
	if err != nil {
		return GroupDetails{}, toolError(err)
	}
	if !g.Invited {
		return GroupDetails{}, invalid("you are already a member of group %s", g.Name)
	}
	if err := s.store.JoinGroup(ctx, c.UserID, g.ID); err != nil {
		return GroupDetails{}, toolError(err)
	}
	g.Invited = false
	out, err := s.groupDetails(ctx, s.directory(c), g)
	return out, toolError(err)
}

// Friend is a friend of the caller, by the name the caller knows them by.
type Friend struct {
	Name       string `json:"name" jsonschema:"The name the caller knows the friend by."`
	Registered bool   `json:"registered" jsonschema:"Whether the friend has an account; false for a placeholder person."`
}

// Friends is the result of list_friends.
type Friends struct {
	Friends []Friend `json:"friends" jsonschema:"The caller's friends, by name."`
}

// ListFriends is list_friends.
func (s *Service) ListFriends(ctx context.Context, c Caller) (Friends, error) {
	fs, err := s.store.ListFriends(ctx, c.UserID)
	if err != nil {
		return Friends{}, toolError(err)
	}
	out := Friends{Friends: []Friend{}}
	for _, f := range fs {
		out.Friends = append(out.Friends, Friend{Name: f.Name, Registered: f.UserID != nil})
	}
	return out, nil
}

// Me is the result of get_me: the caller's account.
type Me struct {
	ID        string `json:"id" jsonschema:"The caller's user id: 32 hexadecimal digits."`
	Name      string `json:"name" jsonschema:"The caller's name."`
	CreatedAt string `json:"createdAt" jsonschema:"When the account was created, RFC 3339 in UTC."`
}

// GetMe is get_me.
func (s *Service) GetMe(ctx context.Context, c Caller) (Me, error) {
	u, err := s.store.UserByID(ctx, c.UserID)
	if err != nil {
		return Me{}, toolError(err)
	}
	return Me{ID: u.ID, Name: u.Name, CreatedAt: rfc3339(u.CreatedAt)}, nil
}

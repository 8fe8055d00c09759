package ledger

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/money"
)

// The people and currencies of the random ledgers: one currency per ISO 4217 minor unit in
// common use (0, 2 and 3 decimals).
var (
	pool       = []PersonID{"me", "ann", "bob", "cy", "dee", "eve"}
	currencies = []money.Currency{jpy, eur, kwd}
)

// randomLedger returns random expenses and payments among 2 to 6 people in JPY, EUR and KWD.
// Shares are split equally, by weights, or at random cut points; that every split adds up
// exactly to its expense (CheckExpense) is itself a property checked here, on every expense
// of every test.
func randomLedger(t *testing.T, r *rand.Rand) ([]Expense, []Payment) {
	people := pool[:2+r.IntN(len(pool)-1)]
	pick := func() PersonID { return people[r.IntN(len(people))] }
	amount := func(c money.Currency) money.Amount {
		limit := []int64{10, 100_000, money.MaxMinor}[r.IntN(3)]
		a, err := money.FromMinor(1+r.Int64N(limit), c)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var expenses []Expense
	for i := range r.IntN(25) {
		c := currencies[r.IntN(len(currencies))]
		e := Expense{ID: string(rune('a' + i)), PaidBy: pick(), Amount: amount(c),
			Deleted: r.IntN(5) == 0}
		var among []PersonID
		for _, j := range r.Perm(len(people))[:1+r.IntN(len(people))] {
			among = append(among, people[j])
		}
		var err error
		switch r.IntN(3) {
		case 0:
			e.Shares, err = EqualShares(e.Amount, among)
		case 1:
			weights := make([]int64, len(among))
			for k := range weights {
				weights[k] = 1 + r.Int64N(5)
			}
			e.Shares, err = WeightedShares(e.Amount, among, weights)
		default:
			e.Shares = randomCuts(r, e.Amount, among)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckExpense(e); err != nil {
			t.Fatalf("generated expense %+v: %v", e, err)
		}
		expenses = append(expenses, e)
	}
	var payments []Payment
	for range r.IntN(10) {
		p := Payment{From: pick(), To: pick(), Amount: amount(currencies[r.IntN(3)])}
		if p.From != p.To {
			payments = append(payments, p)
		}
	}
	return expenses, payments
}

// randomCuts splits amount among people at random points: shares of any size, zero included.
func randomCuts(r *rand.Rand, amount money.Amount, people []PersonID) map[PersonID]money.Amount {
	left := amount.Minor()
	shares := make(map[PersonID]money.Amount, len(people))
	for i, p := range people {
		m := left
		if i < len(people)-1 {
			m = r.Int64N(left + 1)
		}
		left -= m
		shares[p], _ = money.FromMinor(m, amount.Currency())
	}
	return shares
}

// TestZeroSum: in every currency the net positions of all people add up to exactly zero.
func TestZeroSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	for range 3000 {
		expenses, payments := randomLedger(t, r)
		for c, byPerson := range Net(expenses, payments) {
			sum := money.ZeroTotal(c)
			var err error
			for _, a := range byPerson {
				if sum, err = sum.Add(a); err != nil {
					break
				}
			}
			if err != nil || !sum.IsZero() {
				t.Fatalf("%s positions %v add up to %v, %v", c, byPerson, sum, err)
			}
		}
	}
}

// TestDeleteRestore: deleting an expense makes the ledger count as if it were not there, and
// restoring it (flipping Deleted back) gives back exactly the balances from before.
func TestDeleteRestore(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for range 3000 {
		expenses, payments := randomLedger(t, r)
		var live []int
		for i, e := range expenses {
			if !e.Deleted {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			continue
		}
		i := live[r.IntN(len(live))]
		before := snapshot(t, expenses, payments)

		expenses[i].Deleted = true
		deleted := snapshot(t, expenses, payments)
		without := append(append([]Expense(nil), expenses[:i]...), expenses[i+1:]...)
		if w := snapshot(t, without, payments); !reflect.DeepEqual(deleted, w) {
			t.Fatalf("a deleted expense still counts:\n%v\n%v", deleted, w)
		}

		expenses[i].Deleted = false
		if after := snapshot(t, expenses, payments); !reflect.DeepEqual(before, after) {
			t.Fatalf("delete then restore changed the balances:\n%v\n%v", before, after)
		}
	}
}

// TestBalancesMatchPairwise: Balances(me) equals a direct pairwise netting of the debts
// between me and each other person, the lists mirror each other between two people, and
// owedToYou minus owed is me's Net position in each currency.
func TestBalancesMatchPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for range 2000 {
		expenses, payments := randomLedger(t, r)
		net := Net(expenses, payments)
		for _, me := range pool {
			owed, owedToYou := Balances(me, expenses, payments)
			got := map[key]int64{}
			total := map[money.Currency]int64{}
			for _, b := range owed {
				got[key{b.Amount.Currency(), b.Person}] = b.Amount.Minor().Int64()
				total[b.Amount.Currency()] -= b.Amount.Minor().Int64()
			}
			for _, b := range owedToYou {
				got[key{b.Amount.Currency(), b.Person}] = -b.Amount.Minor().Int64()
				total[b.Amount.Currency()] += b.Amount.Minor().Int64()
			}
			if want := pairwise(me, expenses, payments); !reflect.DeepEqual(got, want) {
				t.Fatalf("Balances(%s) = %v, pairwise %v", me, got, want)
			}
			for _, c := range currencies {
				if total[c] != net[c][me].Minor().Int64() {
					t.Fatalf("%s in %s: owedToYou-owed %d, Net %v", me, c, total[c], net[c][me])
				}
			}
			// What me owes p, p is owed by me.
			for _, b := range owed {
				_, theirs := Balances(b.Person, expenses, payments)
				if !contains(theirs, Balance{Person: me, Amount: b.Amount}) {
					t.Fatalf("%s owes %s %v, not in their owedToYou %v", me, b.Person,
						b.Amount, theirs)
				}
			}
		}
	}
}

// TestOrderDoesNotMatter: shuffling expenses, payments and shares leaves everything unchanged.
func TestOrderDoesNotMatter(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	for range 1000 {
		expenses, payments := randomLedger(t, r)
		before := snapshot(t, expenses, payments)
		r.Shuffle(len(expenses), func(i, j int) {
			expenses[i], expenses[j] = expenses[j], expenses[i]
		})
		r.Shuffle(len(payments), func(i, j int) {
			payments[i], payments[j] = payments[j], payments[i]
		})
		if after := snapshot(t, expenses, payments); !reflect.DeepEqual(before, after) {
			t.Fatalf("order changed the balances:\n%v\n%v", before, after)
		}
	}
}

// state is everything the ledger computes: Net, and Balances for every person of the pool.
type state struct {
	Net       map[money.Currency]map[PersonID]money.Total
	Owed      map[PersonID][]Balance
	OwedToYou map[PersonID][]Balance
}

func snapshot(t *testing.T, expenses []Expense, payments []Payment) state {
	t.Helper()
	s := state{Net: Net(expenses, payments), Owed: map[PersonID][]Balance{}, OwedToYou: map[PersonID][]Balance{}}
	for _, me := range pool {
		s.Owed[me], s.OwedToYou[me] = Balances(me, expenses, payments)
	}
	return s
}

// pairwise nets, independently of Balances, what me owes each other person per currency
// (negative: they owe me), leaving out those who are even.
func pairwise(me PersonID, expenses []Expense, payments []Payment) map[key]int64 {
	m := map[key]int64{}
	for _, e := range expenses {
		if e.Deleted {
			continue
		}
		for p, s := range e.Shares {
			switch {
			case p == me && e.PaidBy != me:
				m[key{s.Currency(), e.PaidBy}] += s.Minor()
			case e.PaidBy == me && p != me:
				m[key{s.Currency(), p}] -= s.Minor()
			}
		}
	}
	for _, p := range payments {
		switch {
		case p.From == me && p.To != me:
			m[key{p.Amount.Currency(), p.To}] -= p.Amount.Minor()
		case p.To == me && p.From != me:
			m[key{p.Amount.Currency(), p.From}] += p.Amount.Minor()
		}
	}
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
	return m
}

func contains(bs []Balance, b Balance) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

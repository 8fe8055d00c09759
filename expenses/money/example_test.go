package money_test

import (
	"encoding/json"
	"fmt"

	"github.com/bananaqr/bananaqr/expenses/money"
)

func ExampleParse() {
	eur := money.MustCurrency("EUR")
	a, _ := money.Parse("12.5", eur)
	fmt.Println(a, a.Minor())
	_, err := money.Parse("12.345", eur)
	fmt.Println(err)
	// Output:
	// 12.50 1250
	// money: amount 12.345: too many decimals: EUR allows at most 2 decimals (its ISO 4217 minor unit)
}

func ExampleFromJSONNumber() {
	var args struct {
		Amount   json.Number    `json:"amount"`
		Currency money.Currency `json:"currency"`
	}
	_ = json.Unmarshal([]byte(`{"amount": 0.005, "currency": "kwd"}`), &args)
	a, _ := money.FromJSONNumber(args.Amount, args.Currency)
	fmt.Println(a, a.Currency(), a.Minor())
	b, _ := money.FromJSONNumber("1e3", money.MustCurrency("JPY"))
	fmt.Println(b)
	// Output:
	// 0.005 KWD 5
	// 1000
}

func ExampleSplit() {
	ten, _ := money.Parse("10.00", money.MustCurrency("EUR"))
	fmt.Println(money.Split(ten, 3))
	yen, _ := money.Parse("100", money.MustCurrency("JPY"))
	fmt.Println(money.Split(yen, 3))
	fils, _ := money.Parse("0.010", money.MustCurrency("KWD"))
	fmt.Println(money.Split(fils, 3))
	// Output:
	// [3.34 3.33 3.33]
	// [34 33 33]
	// [0.004 0.003 0.003]
}

func ExampleSplitByWeights() {
	total, _ := money.Parse("100.01", money.MustCurrency("EUR"))
	shares, _ := money.SplitByWeights(total, []int64{2, 1, 1})
	fmt.Println(shares)
	// Output: [50.01 25.00 25.00]
}

package banana

import (
	"image/color"
	"math"
)

// Colours of the mark (fixed; the pad behind it takes the code's background colour).
var (
	yellowColor = color.RGBA{0xFF, 0xD2, 0x3F, 255} // a ripe banana yellow
	inkColor    = color.RGBA{0x3B, 0x2A, 0x14, 255} // a dark brown outline
)

// Banana levels: the pixel values of Raster. Each stands for a mix of the background,
// the yellow and the ink; LevelColor gives its colour on a given background.
const (
	LevelNone            = iota // background (the pad colour shows)
	LevelYellow                 // full yellow
	LevelInk                    // full outline colour
	LevelInkOverBg25            // ink blended over background at 25 %
	LevelInkOverBg50            // ink blended over background at 50 %
	LevelInkOverBg75            // ink blended over background at 75 %
	LevelInkOverYellow25        // ink blended over yellow at 25 %
	LevelInkOverYellow50        // ink blended over yellow at 50 %
	LevelInkOverYellow75        // ink blended over yellow at 75 %
	LevelYellowOverBg25         // yellow blended over background at 25 %
	LevelYellowOverBg50         // yellow blended over background at 50 %
	LevelYellowOverBg75         // yellow blended over background at 75 %

	Levels // how many levels there are
)

// levelMix holds, for each banana level, the shares of background, yellow and ink it stands
// for; each row sums to 1.
var levelMix = [Levels][3]float64{
	LevelNone:            {1, 0, 0},
	LevelYellow:          {0, 1, 0},
	LevelInk:             {0, 0, 1},
	LevelInkOverBg25:     {0.75, 0, 0.25},
	LevelInkOverBg50:     {0.5, 0, 0.5},
	LevelInkOverBg75:     {0.25, 0, 0.75},
	LevelInkOverYellow25: {0, 0.75, 0.25},
	LevelInkOverYellow50: {0, 0.5, 0.5},
	LevelInkOverYellow75: {0, 0.25, 0.75},
	LevelYellowOverBg25:  {0.75, 0.25, 0},
	LevelYellowOverBg50:  {0.5, 0.5, 0},
	LevelYellowOverBg75:  {0.25, 0.75, 0},
}

// LevelColor returns the colour that level stands for on the background bg: the linear
// blend of bg, yellowColor and inkColor in the level's proportions, channel by channel in
// sRGB values, alpha included. Callers pass opaque backgrounds, so the results are opaque too:
// render.Options asks for opaque colours, and the PNG palette has no tRNS chunk to carry alpha.
// Unknown levels give bg.
func LevelColor(level uint8, bg color.RGBA) color.RGBA {
	if int(level) >= Levels {
		return bg
	}
	m := levelMix[level]
	mix := func(b, y, i uint8) uint8 {
		return uint8(math.Round(m[0]*float64(b) + m[1]*float64(y) + m[2]*float64(i)))
	}
	y, i := yellowColor, inkColor
	return color.RGBA{mix(bg.R, y.R, i.R), mix(bg.G, y.G, i.G), mix(bg.B, y.B, i.B), mix(bg.A, y.A, i.A)}
}

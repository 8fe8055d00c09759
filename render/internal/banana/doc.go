// Package banana draws the service's own mark, a banana, which sits in the centre of a code
// when logo=banana.
//
// Its geometry is built once, in a unit box (x to the right, y down, the box [0,1]×[0,1]), as
// closed contours of cubic Bézier segments in two layers painted in order: the yellow body,
// then the dark ink on top of it (the outline ring, the stem, the blossom tip and a ridge line
// along the body). SVG prints those contours as two SVG paths; Raster fills the very
// same contours with its own scanline rasteriser (non-zero winding, as SVG fills), so both forms
// show the same drawing.
//
// The body is a band: an ellipse bent along an arc of a circle (the spine), fuller on the
// convex side, slimmer towards the stem and with pointed ends. The outline is the body offset
// outwards, so it never folds over itself, and the ink ring is that offset contour with the
// body cut out. The analytic curves are turned into Bézier segments by Hermite interpolation,
// halving segments until they follow the curve to fitTolerance.
package banana

package render

// Directions of the edges of an outline, clockwise: turning right is the next direction.
const (
	east = iota
	south
	west
	north
)

// steps are the unit moves of the four directions, with y growing downwards.
var steps = [4][2]int{east: {1, 0}, south: {0, 1}, west: {-1, 0}, north: {0, -1}}

// A corner is a point of the module lattice where an outline turns: (x, y) is the top left
// corner of module (x, y); out is the direction the outline leaves in; convex says that the
// outline turns right there, around dark, rather than left, around light.
type corner struct {
	x, y   int
	out    uint8
	convex bool
}

// tracer finds the outlines of the dark modules of an n×n matrix: closed loops along the
// edges between dark and light modules, clockwise, dark on the right. Two dark modules that
// touch only at a corner belong to separate outlines. Its memory is reused from call to call.
type tracer struct {
	n       int
	edges   []uint8 // per lattice point (n+1 a row): a bit per direction of an untraced edge leaving it
	corners []corner
}

// trace calls emit with the corners of each outline of the dark modules of g, top to bottom.
func (t *tracer) trace(g *grid, emit func([]corner)) {
	n := g.n
	t.n = n
	w := n + 1
	if cap(t.edges) < w*w {
		t.edges = make([]uint8, w*w)
	}
	t.edges = t.edges[:w*w]
	clear(t.edges)
	// Each dark module contributes its sides that border light, walked clockwise.
	gw := n + 2 // the grid's row, with its border
	// Branch-free: the modules are as good as random.
	for y := range n {
		above, here, below := g.cells[y*gw:(y+1)*gw], g.cells[(y+1)*gw:(y+2)*gw], g.cells[(y+2)*gw:(y+3)*gw]
		top, bottom := t.edges[y*w:(y+1)*w], t.edges[(y+1)*w:(y+2)*w]
		for x := range n {
			d := here[x+1]
			top[x] |= d &^ above[x+1] << east
			top[x+1] |= d &^ here[x+2] << south
			bottom[x+1] |= d &^ below[x+1] << west
			bottom[x] |= d &^ here[x] << north
		}
	}
	for i, e := range t.edges {
		if e&(1<<east) != 0 {
			emit(t.loop(i%w, i/w))
		}
	}
}

// turns gives, for the edges leaving a point rotated so that bit 0 is the right turn, bit 2
// the left turn and bit 3 straight on, the turn to take: right first, then straight, then left
// (0 right, 3 straight, 2 left, as steps from the direction after a right turn).
var turns = func() (t [16]uint8) {
	for e := range t {
		switch {
		case e&1 != 0:
			t[e] = 0
		case e&8 != 0:
			t[e] = 3
		default:
			t[e] = 2
		}
	}
	return t
}()

// loop follows the outline that leaves (x0, y0) eastwards and returns its corners. Where two
// outlines touch at a point it turns right, which keeps them apart.
func (t *tracer) loop(x0, y0 int) []corner {
	w := t.n + 1
	cs := t.corners[:cap(t.corners)]
	n := 0 // corners found
	x, y, dir := x0, y0, uint8(east)
	for {
		if x != x0 || y != y0 || dir != east { // the first edge stays until the loop closes
			t.edges[y*w+x] &^= 1 << dir
		}
		x, y = x+steps[dir][0], y+steps[dir][1]
		e := uint(t.edges[y*w+x])
		right := (dir + 1) & 3
		next := (right + turns[(e|e<<4)>>right&15]) & 3
		if x == x0 && y == y0 && next == east {
			break
		}
		// Branch-free: whether the outline turns here is as good as random.
		if n == len(cs) {
			cs = append(cs, corner{})
			cs = cs[:cap(cs)]
		}
		cs[n] = corner{x, y, next, next == right}
		n += int(b2u8(next != dir))
		dir = next
	}
	t.edges[y0*w+x0] &^= 1 << east
	t.corners = cs[:n]
	if dir != east { // the loop turns at its start too
		t.corners = append(t.corners, corner{x0, y0, east, dir == north})
	}
	return t.corners
}

// b2u8 converts a bool to 0 or 1 without a branch.
func b2u8(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

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
	for y := range n {
		for x := range n {
			c := (y+1)*gw + x + 1
			if !g.cells[c] {
				continue
			}
			if !g.cells[c-gw] {
				t.edges[y*w+x] |= 1 << east
			}
			if !g.cells[c+1] {
				t.edges[y*w+x+1] |= 1 << south
			}
			if !g.cells[c+gw] {
				t.edges[(y+1)*w+x+1] |= 1 << west
			}
			if !g.cells[c-1] {
				t.edges[(y+1)*w+x] |= 1 << north
			}
		}
	}
	for i, e := range t.edges {
		if e&(1<<east) != 0 {
			emit(t.loop(i%w, i/w))
		}
	}
}

// loop follows the outline that leaves (x0, y0) eastwards and returns its corners. Where two
// outlines touch at a point it turns right, which keeps them apart.
func (t *tracer) loop(x0, y0 int) []corner {
	w := t.n + 1
	t.corners = t.corners[:0]
	x, y, dir := x0, y0, uint8(east)
	for {
		if x != x0 || y != y0 || dir != east { // the first edge stays until the loop closes
			t.edges[y*w+x] &^= 1 << dir
		}
		x, y = x+steps[dir][0], y+steps[dir][1]
		e := t.edges[y*w+x]
		next := dir
		switch right, left := (dir+1)%4, (dir+3)%4; {
		case e&(1<<right) != 0:
			next = right
		case e&(1<<dir) != 0:
		default:
			next = left
		}
		if x == x0 && y == y0 && next == east {
			break
		}
		if next != dir {
			t.corners = append(t.corners, corner{x, y, next, next == (dir+1)%4})
		}
		dir = next
	}
	t.edges[y0*w+x0] &^= 1 << east
	if dir != east { // the loop turns at its start too
		t.corners = append(t.corners, corner{x0, y0, east, dir == north})
	}
	return t.corners
}

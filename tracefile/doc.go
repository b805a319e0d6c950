// Package tracefile writes a replay's sim.Trace in the file formats that
// the field's trace viewers read, so a run can be explored beyond netsched's
// own Gantt charts:
//
//   - the Trace Event Format of Chrome tracing and Perfetto (.json), and
//   - the Paje format of SimGrid's traces, read by ViTE and pajeng (.paje).
//
// # Time
//
// Both formats count time in seconds of the viewer's clock: one unit of
// model time is shown as one second. The Trace Event Format gives ts and
// dur in microseconds, so they are model times × 1e6, rounded to the
// microsecond's thousandth (1e-9 model units); Paje dates are model times
// as they are, written in the shortest decimal that reads back exactly.
//
// # Lanes and tracks
//
// A lane of the trace (a processor, port, link or uplink) may carry
// intervals that overlap without nesting: a processor sends while it
// computes, a link carries several reservations at once. Neither format
// shows those on one row — Perfetto drops or misplaces X events that do not
// nest, and Paje's state stack pops the wrong state — so each lane is split
// into tracks, as the Gantt chart splits a row into sub-rows: the intervals
// are taken in order of start and each goes to the first track free by
// then, which uses as few tracks as the lane's peak concurrency. The first
// track bears the lane's name, the k-th "name #k". A lane without overlaps
// is one track, and an idle lane still has one, so every lane is shown.
//
// # Trace Event Format
//
// One process (pid 1) is the platform, named by the title; each track is a
// thread (tid 1, 2, ... in lane order) named by thread_name metadata and
// kept in lane order by thread_sort_index. Each interval is one complete
// event (ph "X"): name is its label (its kind when it has none), cat its
// kind, args its amount, round and action index. Metadata come first, then
// the intervals by start, track, end and trace order, one event a line.
//
// # Paje
//
// The container hierarchy is a root container of type Platform, named by
// the title, holding one container of type Lane per track, in lane order.
// Each interval kind present is a state type of Lane, each label of a kind
// (the kind itself for an interval without one) an entity value of that
// type, in the kind's colour (the Gantt charts' colours: computation blue,
// sends orange, receptions green, links purple), and each interval is a
// PajePushState of its value followed by a PajePopState: a track's intervals never overlap, so its stack is never
// deeper than one, and the states between intervals are empty rather than
// an invented "idle". Events are in time order, ties kept in the order of
// tracks and, within a track, push before pop. Paje strings have no escape,
// so a double quote in a name is written as a single quote and a line
// break as a space.
package tracefile

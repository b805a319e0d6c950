package network

import (
	"fmt"
	"math"
)

// Link is a network link: its bandwidth in bytes per second and its
// latency in seconds.
type Link struct {
	Bandwidth float64
	Latency   float64
}

// Network is a set of hosts and the links between them. Routes are given
// per flow, as lists of link indices.
type Network struct {
	Hosts int
	Links []Link
}

// Flow is a transfer of Size bytes from host Src to host Dst, starting at
// time Start (seconds) along Route, the indices of the links it crosses.
type Flow struct {
	Src, Dst int
	Size     float64
	Start    float64
	Route    []int
}

// Validate reports the first link of n whose bandwidth is not a finite
// number > 0 or whose latency is not a finite number ≥ 0, or a negative
// host count.
func (n *Network) Validate() error {
	if n.Hosts < 0 {
		return fmt.Errorf("hosts: %d is negative", n.Hosts)
	}
	for i, l := range n.Links {
		if !(l.Bandwidth > 0) || math.IsInf(l.Bandwidth, 0) {
			return fmt.Errorf("links[%d][0]: bandwidth must be a finite number > 0, got %v", i, l.Bandwidth)
		}
		if !(l.Latency >= 0) || math.IsInf(l.Latency, 0) {
			return fmt.Errorf("links[%d][1]: latency must be a finite number >= 0, got %v", i, l.Latency)
		}
	}
	return nil
}

// FlowError is what is wrong with one field of a flow, written as the
// array [src, dst, size, start, route] of the flow file: Field is the
// index in it and Elem the route element (-1 for none).
type FlowError struct {
	Field, Elem int
	Msg         string
}

// Path is the field's path in the flow's array: "[4][2]", "[1]".
func (e *FlowError) Path() string {
	if e.Elem >= 0 {
		return fmt.Sprintf("[%d][%d]", e.Field, e.Elem)
	}
	return fmt.Sprintf("[%d]", e.Field)
}

func (e *FlowError) Error() string { return e.Path() + ": " + e.Msg }

func flowErr(field, elem int, format string, args ...any) error {
	return &FlowError{Field: field, Elem: elem, Msg: fmt.Sprintf(format, args...)}
}

// ValidateFlow reports what is wrong with f on n, as a *FlowError: hosts
// out of range, a size or start that is not a finite number ≥ 0, an empty
// route, a link that does not exist or appears twice.
func (n *Network) ValidateFlow(f Flow) error {
	for i, h := range [2]int{f.Src, f.Dst} {
		if h < 0 || h >= n.Hosts {
			return flowErr(i, -1, "host %d does not exist (hosts are 0 to %d)", h, n.Hosts-1)
		}
	}
	if !(f.Size >= 0) || math.IsInf(f.Size, 0) {
		return flowErr(2, -1, "size must be a finite number >= 0, got %v", f.Size)
	}
	if !(f.Start >= 0) || math.IsInf(f.Start, 0) {
		return flowErr(3, -1, "start must be a finite number >= 0, got %v", f.Start)
	}
	if len(f.Route) == 0 {
		return flowErr(4, -1, "the route is empty")
	}
	for i, l := range f.Route {
		if l < 0 || l >= len(n.Links) {
			return flowErr(4, i, "link %d does not exist (links are 0 to %d)", l, len(n.Links)-1)
		}
		for j := range i {
			if f.Route[j] == l {
				return flowErr(4, i, "link %d appears twice in the route (also at [4][%d])", l, j)
			}
		}
	}
	return nil
}

// RouteLatency is the sum of the latencies of route's links on n.
func (n *Network) RouteLatency(route []int) float64 {
	lat := 0.0
	for _, l := range route {
		lat += n.Links[l].Latency
	}
	return lat
}

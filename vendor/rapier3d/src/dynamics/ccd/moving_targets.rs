//! The moving targets of the relative-motion pass ([`super::relative_motion`]; rapier-pinned
//! patch, off by default): each enabled collider of a kinematic/dynamic body, with bounds that
//! cover its whole motion this step (a sphere around its center of mass swept along its
//! straight path, so any rotation is covered), and the search for a bullet's candidates among
//! them. Built once per step, after the non-bullet pass: the broad phase's own tree holds
//! start-of-step bounds only.
//!
//! The search is a sweep and prune along one axis, kept from pass to pass; when most bounds are
//! swept bullets', every pair is found in one sweep. It finds exactly what a scan of the list
//! finds, in the same order (`every_search_finds_the_scans_targets`), so only its speed depends
//! on it.

use crate::alloc_prelude::*;
use crate::dynamics::{RigidBody, RigidBodyHandle, RigidBodySet};
use crate::geometry::{Collider, ColliderHandle, ColliderSet};
use crate::math::{Real, Vector};
use crate::parry::bounding_volume::{Aabb, BoundingVolume};
use arrayvec::ArrayVec;

use super::sweeps::is_moving_target;

/// A collider's center-of-mass path this step: the body's center of mass moves from `start` to
/// `end` on a straight line at constant speed in both motion models, and the collider stays
/// within `radius` of it in any orientation.
#[derive(Copy, Clone)]
pub(super) struct ComPath {
    start: Vector,
    end: Vector,
    radius: Real,
}

impl ComPath {
    /// The path of `co`, a collider of `rb`; `None` if `co` has no parent.
    pub(super) fn new(rb: &RigidBody, co: &Collider) -> Option<Self> {
        let parent = co.parent.as_ref()?;
        let local_com = rb.mprops.local_mprops.local_com;
        let sphere = co.shape.compute_local_bounding_sphere();
        let center_in_body = parent.pos_wrt_parent.transform_point(sphere.center);
        Some(Self {
            start: rb.pos.position.transform_point(local_com),
            end: rb.pos.next_position.transform_point(local_com),
            radius: (center_in_body - local_com).length() + sphere.radius,
        })
    }

    /// Bounds covering every pose of the collider along its body's motion this step, loosened
    /// by `margin`: the sphere of `radius` swept along the center of mass' straight path (both
    /// motion models move it on that line for the endpoint sweep; for the nonlinear one it is the
    /// same line at constant velocity).
    pub(super) fn bounds(&self, margin: Real) -> Aabb {
        let half = Vector::splat(self.radius + margin);
        Aabb::new(self.start - half, self.start + half)
            .merged(&Aabb::new(self.end - half, self.end + half))
    }

    /// Can the two colliders come within `margin` of each other during the step? Both centers
    /// move uniformly in the same normalized time, so their closest approach, less the two radii,
    /// bounds the colliders' distance from below at every instant.
    pub(super) fn may_come_within(&self, other: &ComPath, margin: Real) -> bool {
        let d0 = self.start - other.start;
        let dd = (self.end - self.start) - (other.end - other.start);
        let len2 = dd.length_squared();
        let t = if len2 > 0.0 {
            (-d0.dot(dd) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (d0 + dd * t).length() <= self.radius + other.radius + margin
    }
}

/// A moving target of the pass: a collider of a kinematic/dynamic body, its body, its
/// center-of-mass path and that path's [`ComPath::bounds`].
#[derive(Clone)]
pub(super) struct MovingTarget {
    pub(super) collider: ColliderHandle,
    pub(super) body: RigidBodyHandle,
    pub(super) path: ComPath,
    pub(super) bounds: Aabb,
    /// Whether the pass sweeps `body` itself. A bullet that is not moving fast this step (or is
    /// asleep) is not swept: it is only ever a target.
    swept: bool,
}

impl MovingTarget {
    /// Whether the bullet `handle` casts against this target: not one of its own colliders, and
    /// a pair of two swept bullets only once, by the one with the smaller handle.
    pub(super) fn is_cast_by(&self, handle: RigidBodyHandle) -> bool {
        let cast_by_other = self.swept && self.body.into_raw_parts() < handle.into_raw_parts();
        self.body != handle && !cast_by_other
    }
}

/// The enabled colliders of kinematic/dynamic bodies with their motion bounds, in handle
/// order, sorted for sweep and prune. Built once per step, after the non-bullet pass: the broad
/// phase's own tree holds start-of-step bounds only.
pub(super) struct MovingTargets {
    pub(super) list: Vec<MovingTarget>,
    /// `None` for at most [`Self::FEW`] bullets: their scans of `list` cost less than the sort.
    pruning: Option<SweepAndPrune>,
    /// How many colliders are not moving targets (fixed, soft-body meshes, disabled or not).
    pub(super) still: usize,
}

/// Sweep and prune over [`MovingTargets::list`]: a bullet tests only the bounds starting within
/// reach on one axis, not every moving collider (a scan of all made a swarm of bullets
/// quadratic).
struct SweepAndPrune {
    /// The list's bounds with their index, sorted by their minimum along `axis` (then by index).
    /// Bounds with a NaN minimum there are left out: they intersect nothing, and would break the
    /// sorted order.
    by_min: Vec<(u32, Aabb)>,
    /// The axis whose windows (see [`MovingTargets::intersecting`]) hold the fewest bounds, and
    /// the longest bound along it.
    axis: usize,
    longest: f64,
    /// When at least half the bounds are swept bullets': every query's hits, found by one sweep
    /// of `by_min` ([`MovingTargets::pairs`]), as `query << 32 | hit` (indices in the list),
    /// sorted. A bullet's window is twice as long as the overlaps it looks for, and tests a pair
    /// of bullets from both sides; the sweep tests each overlap once.
    pairs: Option<Vec<u64>>,
}

impl SweepAndPrune {
    /// The sweep and prune of `list` on `axis`, whose longest bound is `longest`; with `pairs`,
    /// every query's hits are found at once.
    fn new(list: &[MovingTarget], axis: usize, longest: f64, pairs: bool) -> Self {
        let mut keys = Vec::with_capacity(list.len());
        keys.extend(
            (list.iter().enumerate())
                .filter(|(_, target)| !target.bounds.mins[axis].is_nan())
                .map(|(i, target)| sort_key(target.bounds.mins[axis], i as u32)),
        );
        keys.sort_unstable();
        // The low half of a key is its index.
        let by_min: Vec<_> = (keys.into_iter())
            .map(|key| (key as u32, list[key as u32 as usize].bounds))
            .collect();
        let pairs = pairs.then(|| MovingTargets::pairs(list, &by_min, axis));
        Self {
            by_min,
            axis,
            longest,
            pairs,
        }
    }
}

/// How many of a bullet's moving targets [`MovingTargets::intersecting`] finds without allocating.
const KEPT_HITS: usize = 16;

impl MovingTargets {
    /// The most bins [`Self::window_load`] counts the bounds' minima in.
    const MAX_BINS: usize = 64;

    /// So few that pruning is not worth it: at most this many bounds take the first axis, and
    /// at most this many bullets scan every bound.
    const FEW: usize = 16;

    /// The moving targets of this step; `bullets` are the bodies the pass sweeps (awake,
    /// CCD-active bullets), any order; `axis` is the pruning axis kept from the last pass.
    pub(super) fn collect(
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        margin: Real,
        bullets: &[RigidBodyHandle],
        axis: &mut PruneAxis,
    ) -> Self {
        let mut list = Vec::with_capacity(colliders.len());
        // Every collider, enabled or not, that is not a moving target: with none, no leaf of
        // the broad phase's tree can be a bullet's still target.
        let mut still = 0;
        list.extend(colliders.iter().filter_map(|(ch, co)| {
            let rb = co.parent.and_then(|p| bodies.get(p.handle));
            if !is_moving_target(rb, co) {
                still += 1;
                return None;
            }
            if !co.is_enabled() {
                return None;
            }
            let (body, rb) = (co.parent.as_ref()?.handle, rb?);
            let path = ComPath::new(rb, co)?;
            Some(MovingTarget {
                collider: ch,
                body,
                bounds: path.bounds(margin),
                path,
                swept: false,
            })
        }));
        Self::mark_swept(&mut list, bodies, bullets);
        if bullets.len() <= Self::FEW {
            return Self {
                list,
                pruning: None,
                still,
            };
        }
        let (axis, longest) = axis.choose(&list);
        let swept = list.iter().filter(|t| t.swept).count();
        let pruning = SweepAndPrune::new(&list, axis, longest, 2 * swept >= list.len());
        Self {
            list,
            pruning: Some(pruning),
            still,
        }
    }

    /// The axis to prune on: the one whose windows, one per bound of `list` (as if each were a
    /// bullet's), hold the fewest bounds in total (see [`Self::window_load`]); a spread of
    /// bounds along an axis says little when they come in layers, like a grid of bullets all at
    /// the same height. Returns it with its longest bound, in `f64`: there the difference of two
    /// `f32` bounds is exact (unless their magnitudes differ by more than 2^29), so the window of
    /// [`Self::intersecting`] holds every bound that intersects. With at most
    /// [`Self::FEW`] bounds every window is short: the first axis, without counting.
    fn prune_axis(list: &[MovingTarget]) -> (usize, f64) {
        if list.len() <= Self::FEW {
            return (0, Self::longest(list, 0));
        }
        let longests = [0, 1, 2].map(|axis| Self::longest(list, axis));
        let loads = [0, 1, 2].map(|axis| Self::window_load(list, axis, longests[axis]));
        let axis = (0..3).min_by_key(|&axis| loads[axis]).unwrap_or(0);
        (axis, longests[axis])
    }

    /// The longest of `list`'s bounds along `axis`, in `f64`.
    fn longest(list: &[MovingTarget], axis: usize) -> f64 {
        (list.iter())
            .map(|t| t.bounds.maxs[axis] as f64 - t.bounds.mins[axis] as f64)
            .fold(0.0f64, f64::max)
    }

    /// About how many bounds the windows of all `list`'s bounds hold together on `axis`, whose
    /// longest bound is `longest`: the minima are counted in equal bins (one per bound, at most
    /// [`Self::MAX_BINS`]), and each window takes the bins it overlaps. Only the speed of the
    /// search depends on it.
    fn window_load(list: &[MovingTarget], axis: usize, longest: f64) -> u64 {
        let bins = list.len().clamp(1, Self::MAX_BINS);
        let mins = || {
            (list.iter())
                .map(|t| t.bounds.mins[axis] as f64)
                .filter(|m| !m.is_nan())
        };
        let lo = mins().fold(f64::INFINITY, f64::min);
        let hi = mins().fold(f64::NEG_INFINITY, f64::max);
        let per_unit = bins as f64 / (hi - lo);
        // NaN (no spread, or infinite bounds) goes to bin 0.
        let bin = |x: f64| (((x - lo) * per_unit) as usize).min(bins - 1);
        let mut counts = [0u64; Self::MAX_BINS + 1];
        for min in mins() {
            counts[bin(min) + 1] += 1;
        }
        for b in 0..bins {
            counts[b + 1] += counts[b];
        }
        (list.iter())
            .filter(|t| !t.bounds.mins[axis].is_nan())
            .map(|t| {
                let first = bin(t.bounds.mins[axis] as f64 - longest);
                let last = bin(t.bounds.maxs[axis] as f64).max(first);
                counts[last + 1] - counts[first]
            })
            .sum()
    }

    /// Marks the targets that are colliders of the swept `bullets`. Bullets usually come in
    /// handle order, and so do their colliders: each is first looked for right after the last
    /// one found, then in the whole list.
    fn mark_swept(list: &mut [MovingTarget], bodies: &RigidBodySet, bullets: &[RigidBodyHandle]) {
        let mut next = 0;
        for rb in bullets.iter().filter_map(|h| bodies.get(*h)) {
            for ch in &rb.colliders.0 {
                let found = match list.get(next) {
                    Some(target) if target.collider == *ch => Some(next),
                    _ => Self::index_of(list, *ch),
                };
                if let Some(i) = found {
                    list[i].swept = true;
                    next = i + 1;
                }
            }
        }
    }

    /// Where the moving collider `collider` is in `list` (in handle order), if it is one.
    pub(super) fn index_of(list: &[MovingTarget], collider: ColliderHandle) -> Option<usize> {
        let index = collider.into_raw_parts();
        list.binary_search_by_key(&index, |t| t.collider.into_raw_parts())
            .ok()
    }

    /// Every pair of intersecting bounds of two bodies, `by_min` sorted on `axis`, for each side
    /// that is a swept bullet's: `query << 32 | hit`, sorted. A bound is tested against the ones
    /// after it that start before it ends on `axis`: two bounds intersect only if the later one
    /// starts within the earlier one there, so every intersecting pair is tested, once.
    fn pairs(list: &[MovingTarget], by_min: &[(u32, Aabb)], axis: usize) -> Vec<u64> {
        let mut pairs = Vec::new();
        for (k, (i, first)) in by_min.iter().enumerate() {
            let later = by_min[k + 1..].iter();
            for (j, _) in later
                .take_while(|(_, next)| next.mins[axis] <= first.maxs[axis])
                .filter(|(_, next)| next.intersects(first))
            {
                let (ti, tj) = (&list[*i as usize], &list[*j as usize]);
                if ti.body == tj.body {
                    continue;
                }
                if ti.swept {
                    pairs.push((*i as u64) << 32 | *j as u64);
                }
                if tj.swept {
                    pairs.push((*j as u64) << 32 | *i as u64);
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    /// The targets whose bounds intersect `bounds`, but for the colliders of `body`, in handle
    /// order; `entry` is the list's entry whose bounds `bounds` are, if any (its hits may have
    /// been found by [`Self::pairs`]). A bound that intersects starts on `axis` within
    /// `[bounds.mins - longest, bounds.maxs]`: only that window of `by_min` is tested, with the
    /// same test as a scan of `list`, and the hits are put back in `list`'s order, so the result
    /// is exactly the scan's (which few bullets run instead).
    pub(super) fn intersecting<'a>(
        &'a self,
        bounds: &'a Aabb,
        entry: Option<usize>,
        body: RigidBodyHandle,
    ) -> impl Iterator<Item = &'a MovingTarget> + 'a {
        let hit =
            |i: u32, aabb: &Aabb| aabb.intersects(bounds) && self.list[i as usize].body != body;
        // The first hits are kept without allocating (a bullet usually has a few).
        let mut few = ArrayVec::<u32, KEPT_HITS>::new();
        let mut more = Vec::new();
        let mut keep = |i: u32| {
            if let Err(full) = few.try_push(i) {
                more.push(full.element());
            }
        };
        let found = (self.pruning.as_ref()).and_then(|p| p.pairs.as_ref().zip(entry));
        match (&self.pruning, found) {
            (_, Some((pairs, query))) => {
                let query = query as u64;
                let from = pairs.partition_point(|p| p >> 32 < query);
                (pairs[from..].iter())
                    .take_while(|p| *p >> 32 == query)
                    .for_each(|p| keep(*p as u32));
            }
            (None, _) => (0..self.list.len() as u32)
                .filter(|i| hit(*i, &self.list[*i as usize].bounds))
                .for_each(keep),
            (
                Some(SweepAndPrune {
                    by_min,
                    axis,
                    longest,
                    ..
                }),
                None,
            ) => {
                let from = bounds.mins[*axis] as f64 - longest;
                let to = bounds.maxs[*axis] as f64;
                let min = |(_, aabb): &(u32, Aabb)| aabb.mins[*axis] as f64;
                let start = by_min.partition_point(|e| min(e) < from);
                (by_min[start..].iter())
                    .take_while(|e| min(e) <= to)
                    .filter(|(i, aabb)| hit(*i, aabb))
                    .for_each(|(i, _)| keep(*i));
                if more.is_empty() {
                    few.sort_unstable();
                } else {
                    more.extend(few.drain(..));
                    more.sort_unstable();
                }
            }
        }
        few.into_iter().chain(more).map(|i| &self.list[i as usize])
    }
}

/// The pruning axis of the relative-motion pass, kept from pass to pass. The axis only sets the
/// search's speed (every axis finds the same bounds), and counting the windows of all three
/// ([`MovingTargets::window_load`]) cost a swarm of bullets more than its search: it is counted
/// again when the number of bounds changes, and every [`Self::KEPT_FOR`] passes.
#[derive(Clone, Default)]
pub(crate) struct PruneAxis {
    axis: usize,
    bounds: usize,
    passes_left: u32,
}

impl PruneAxis {
    /// How many passes an axis is kept for.
    const KEPT_FOR: u32 = 16;

    /// The axis to prune `list` on, with its longest bound (see [`MovingTargets::prune_axis`]).
    fn choose(&mut self, list: &[MovingTarget]) -> (usize, f64) {
        if self.passes_left == 0 || self.bounds != list.len() {
            let (axis, longest) = MovingTargets::prune_axis(list);
            *self = Self {
                axis,
                bounds: list.len(),
                passes_left: Self::KEPT_FOR - 1,
            };
            return (axis, longest);
        }
        self.passes_left -= 1;
        (self.axis, MovingTargets::longest(list, self.axis))
    }
}

/// The sort key of a bound whose minimum is `min` (not NaN) and whose index is `index`: the
/// order of [`f32::total_cmp`] on the minimum, then the index.
fn sort_key(min: f32, index: u32) -> u64 {
    let bits = min.to_bits();
    // Negative numbers reversed, then the sign flipped: the order of `total_cmp`.
    let ordered = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    (ordered as u64) << 32 | index as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass's three searches for a bullet's moving targets (a scan of the list, a window of
    /// the sweep and prune, the pairs of one sweep) find the same targets in the same order, on
    /// random bounds (some NaN, some of one body, half swept) on every axis.
    #[test]
    fn every_search_finds_the_scans_targets() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..300 {
            let n = 1 + (next() % 48) as u32;
            let mut unit = || (next() % 1000) as Real / 100.0;
            let targets: Vec<MovingTarget> = (0..n)
                .map(|i| {
                    let c = Vector::new(unit(), unit(), unit());
                    let half = Vector::new(unit(), unit(), unit()) * 0.2;
                    let mut bounds = Aabb::new(c - half, c + half);
                    if unit() < 0.3 {
                        bounds.mins[(unit() * 0.3) as usize] = Real::NAN;
                    }
                    // About two colliders per body, so some pairs share one.
                    let body = (unit() * n as Real / 20.0) as u32;
                    MovingTarget {
                        collider: ColliderHandle::from_raw_parts(i, 0),
                        body: RigidBodyHandle::from_raw_parts(body, 0),
                        path: ComPath {
                            start: c,
                            end: c,
                            radius: 0.0,
                        },
                        bounds,
                        swept: unit() < 5.0,
                    }
                })
                .collect();
            for axis in 0..3 {
                let longest = MovingTargets::longest(&targets, axis);
                let searches = [None, Some(false), Some(true)].map(|pairs| MovingTargets {
                    pruning: pairs.map(|p| SweepAndPrune::new(&targets, axis, longest, p)),
                    list: targets.clone(),
                    still: 0,
                });
                for (e, query) in targets.iter().enumerate().filter(|(_, t)| t.swept) {
                    let [scan, window, pairs] = [0, 1, 2].map(|k| {
                        (searches[k].intersecting(&query.bounds, Some(e), query.body))
                            .map(|t| t.collider)
                            .collect::<Vec<_>>()
                    });
                    assert_eq!(scan, window, "axis {axis}, query {e}");
                    assert_eq!(scan, pairs, "axis {axis}, query {e}");
                }
            }
        }
    }
}

#[cfg(all(doc, feature = "alloc"))]
use super::RigidBodyActivation;
use crate::math::Real;
use simba::simd::SimdRealField;

// NOTE: the 2x2 block solver (`block-solver` feature) runs in BOTH passes and solves the COMPLIANT
//       LCP `(K + C, b)`, `C = diag((1/ms_i - 1) k_ii)` — the coupled soft step — so it shares
//       the sequential sweep's fixed points; a rigid-LCP-then-cfm-scale variant left piles micro-jiggling.

/// Friction models used for all contact constraints between two rigid-bodies.
///
/// This selection does not apply to multibodies that always rely on the [`FrictionModel::Coulomb`].
#[cfg(feature = "dim3")]
#[derive(Default, Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde-serialize", derive(Serialize, Deserialize))]
pub enum FrictionModel {
    /// A simplified friction model significantly faster to solve than [`Self::Coulomb`]
    /// but less accurate.
    ///
    /// Instead of solving one Coulomb friction constraint per contact in a contact manifold,
    /// this approximation only solves one Coulomb friction constraint per group of 4 contacts
    /// in a contact manifold, plus one "twist" constraint. The "twist" constraint is purely
    /// rotational and aims to eliminate angular movement in the manifold’s tangent plane.
    #[default]
    Simplified,
    /// The coulomb friction model.
    ///
    /// This results in one Coulomb friction constraint per contact point.
    Coulomb,
}

/// Whether bullet pairs are swept on both bodies' motions: see
/// [`IntegrationParameters::ccd_relative_motion`].
///
/// Serialized as its number (`0` to `3`; `0` and `1` are the bytes of the `bool` the setting
/// was first); any other number is a deserialization error.
#[derive(Default, Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde-serialize",
    derive(Serialize, Deserialize),
    serde(into = "u8", try_from = "u8")
)]
#[repr(u8)]
pub enum CcdRelativeMotion {
    /// Upstream's rule: a bullet sweeps a moving target frozen at its end pose, and never another
    /// bullet.
    #[default]
    Off = 0,
    /// Bullet pairs are swept on both bodies' motions (see
    /// [`IntegrationParameters::ccd_relative_motion`]); a pair with a body turning more than
    /// half a turn in the step is swept in as many time slices as its turn needs, however many.
    On = 1,
    /// [`Self::On`], with at most 32 time slices per pair: a body turning more than 4 turns in a
    /// step (14,400 rpm at 60 Hz) has each slice turn more than π/4, so its pairs' sweeps lose
    /// accuracy, never time. A step's cost no longer grows with a body's spin.
    Bounded = 2,
    /// [`Self::Bounded`], and every nonlinear cast of the continuous pass (a pair without a
    /// point-cloud proxy: cylinders, cones, moving compounds and meshes) probes a pair that
    /// starts in contact at no more than 1,024 times: at more than about 600 m/s or 10⁵ rad/s
    /// of relative motion such a pair's probes are spaced wider than its thickness or its turn
    /// allows, so it loses accuracy, never time. Without the bound the probes grow with the
    /// speeds, and a body blown up to 10¹⁵ m/s by the solver made a step never return.
    BoundedCasts = 3,
}

impl CcdRelativeMotion {
    /// Whether the bullet pass sweeps pairs on both bodies' motions (any mode but `Off`).
    pub fn is_on(self) -> bool {
        !matches!(self, Self::Off)
    }

    /// The most time slices a moving pair is swept in: `None` when unbounded.
    pub fn max_slices(self) -> Option<u32> {
        matches!(self, Self::Bounded | Self::BoundedCasts).then_some(32)
    }

    /// The most probes a nonlinear cast of a pair that starts in contact takes (parry's
    /// [`StepCappedDispatcher`](crate::parry::query::StepCappedDispatcher)): `None` when
    /// unbounded.
    pub fn max_cast_steps(self) -> Option<u32> {
        matches!(self, Self::BoundedCasts).then_some(1024)
    }
}

impl From<CcdRelativeMotion> for u8 {
    fn from(mode: CcdRelativeMotion) -> u8 {
        mode as u8
    }
}

impl TryFrom<u8> for CcdRelativeMotion {
    type Error = UnknownCcdRelativeMotion;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            0 => Ok(Self::Off),
            1 => Ok(Self::On),
            2 => Ok(Self::Bounded),
            3 => Ok(Self::BoundedCasts),
            other => Err(UnknownCcdRelativeMotion(other)),
        }
    }
}

/// A number that names no [`CcdRelativeMotion`] (only `0` to `3` do).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnknownCcdRelativeMotion(pub u8);

impl core::fmt::Display for UnknownCcdRelativeMotion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown ccd_relative_motion {} (expected 0 Off, 1 On, 2 Bounded or 3 BoundedCasts)",
            self.0
        )
    }
}

impl core::error::Error for UnknownCcdRelativeMotion {}

/// What the continuous-collision pass does with a *persistent contact*: a pair whose full-shape
/// sweep already starts at fraction 0 (the shapes are within `allowed_linear_error` of each other,
/// or overlapping, at the start of the step). See
/// [`IntegrationParameters::ccd_persistent_contact_policy`].
///
/// Serialized as its number (`0` to `5`); any other number is a deserialization error.
#[derive(Default, Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde-serialize",
    derive(Serialize, Deserialize),
    serde(into = "u8", try_from = "u8")
)]
#[repr(u8)]
pub enum CcdPersistentContactPolicy {
    /// Upstream's rule: the pair is ignored by the continuous pass and left to the contact solver.
    #[default]
    Upstream = 0,
    /// Against a **fixed** target (a parentless collider or a `Fixed` parent): the full shape is
    /// cast first and its hit accepted only on a *different face* of the target than the one the
    /// pair touches at the start; on the same face, or without a hit, the fast piece's *core
    /// sphere* (a ball at its centroid of radius `CORE_FRACTION × ccd_thickness`) is swept
    /// instead. Against a **kinematic or dynamic** target: the core sphere only.
    CoreSphere = 1,
    /// Fixed targets exactly as [`Self::CoreSphere`]. Kinematic and dynamic targets: the
    /// full-shape time of impact, from a nonlinear cast over both bodies' motions that does not
    /// give up on a pair starting in contact (it reports when the shapes would get deeper),
    /// honoured down to fraction 0; no core sphere.
    CoreSphereFixedTargets = 2,
    /// Every target, fixed or moving: a pair in contact at the start of the step is not
    /// clamped (one that comes into contact within the step, at the start of a later time slice
    /// of a fast-turning pair, stops there). Instead, after every clamp of the pass, each solid
    /// narrow-phase pair of a CCD-active body or a bullet with a collider thinner than
    /// `allowed_linear_error` is *kept from deepening*: if it would end the step more
    /// overlapping than `min(start distance, 0)`, its dynamic bodies are moved apart by the
    /// difference, shared by inverse mass; a pair whose piece's core sphere reached the target
    /// during the step (going through it, not around) is moved back along its start normal. The
    /// motion is kept whole but for that correction; velocities are kept.
    KeepDepth = 3,
    /// [`Self::KeepDepth`], with the work a bound proves cannot change the step skipped
    /// (`ccd/bounds.rs`): a cast against a fixed cuboid that every piece of the fast collider
    /// either stays apart from by more than the cast reaches, or starts touching over one of its
    /// faces without its core sphere coming near it; the depth rule's query of a pair whose
    /// bounding boxes are disjoint at the end, or that ends within ε of a fixed cuboid's face (ε
    /// the thinner part's half-thickness, so neither part has passed through the other); a
    /// moving pair's cast that a separating line proves a miss.
    KeepDepthBounded = 4,
    /// [`Self::KeepDepthBounded`], and no centre of a piece of a CCD-active body or a bullet ends
    /// a step past the surface of a fixed collider (a cuboid, a hull, a mesh's or a
    /// heightfield's face) that its path crossed during the step: after the depth rule, the
    /// body is moved back along that face's normal until the piece is no deeper behind it than
    /// it started and the centre is in front of it (`ccd/keep_side.rs`). A centre is a point of
    /// its piece, so a part never ends a step through, or inside, a fixed collider it reached;
    /// the motion along the face is kept, velocities are kept.
    KeepSide = 5,
    /// [`Self::KeepSide`], and the depth rule's query of a pair of a fixed mesh or heightfield
    /// and a convex collider skipped when the collider ends less than half its half-thickness
    /// behind the plane of every face near it, its centre in front of each (`ccd/bounds.rs`):
    /// it has not passed through the surface there and is at most that deep in it, the solver
    /// resolves the rest. Without it such a pair is queried face by face every step it rests
    /// on the surface.
    KeepSideSurfaceBounds = 6,
}

impl CcdPersistentContactPolicy {
    /// Whether the continuous pass resolves a pair already in contact itself (any policy but
    /// upstream's, which leaves it to the contact solver).
    pub fn resolves_persistent_contacts(self) -> bool {
        !matches!(self, Self::Upstream)
    }

    /// Whether a pair in contact with a *moving* target is resolved by the full shape's time of
    /// impact, honoured down to fraction 0, rather than by its core sphere (policy 2).
    pub fn casts_full_shape_against_moving_targets(self) -> bool {
        matches!(self, Self::CoreSphereFixedTargets)
    }

    /// Whether a pair in contact at the start of the step keeps its motion, and the depth rule
    /// after the passes keeps it from ending deeper or through (policy 3, `keep_depth.rs`).
    pub fn keeps_depth(self) -> bool {
        matches!(
            self,
            Self::KeepDepth | Self::KeepDepthBounded | Self::KeepSide | Self::KeepSideSurfaceBounds
        )
    }

    /// Whether the pass skips the casts and depth-rule queries a bound proves unneeded
    /// (policy 4, `bounds.rs`).
    pub fn skips_bounded_work(self) -> bool {
        matches!(
            self,
            Self::KeepDepthBounded | Self::KeepSide | Self::KeepSideSurfaceBounds
        )
    }

    /// Whether no centre of a CCD-active body's or a bullet's piece ends a step past a fixed
    /// collider's surface it crossed (policy 5, `keep_side.rs`).
    pub fn keeps_side(self) -> bool {
        matches!(self, Self::KeepSide | Self::KeepSideSurfaceBounds)
    }

    /// Whether the depth rule skips the query of a pair of a fixed mesh or heightfield and a
    /// convex collider that ends within a bound of its faces (policy 6, `bounds.rs`).
    pub fn bounds_surfaces(self) -> bool {
        matches!(self, Self::KeepSideSurfaceBounds)
    }
}

impl From<CcdPersistentContactPolicy> for u8 {
    fn from(policy: CcdPersistentContactPolicy) -> u8 {
        policy as u8
    }
}

impl TryFrom<u8> for CcdPersistentContactPolicy {
    type Error = UnknownCcdPersistentContactPolicy;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            0 => Ok(Self::Upstream),
            1 => Ok(Self::CoreSphere),
            2 => Ok(Self::CoreSphereFixedTargets),
            3 => Ok(Self::KeepDepth),
            4 => Ok(Self::KeepDepthBounded),
            5 => Ok(Self::KeepSide),
            6 => Ok(Self::KeepSideSurfaceBounds),
            other => Err(UnknownCcdPersistentContactPolicy(other)),
        }
    }
}

/// A number that names no [`CcdPersistentContactPolicy`] (only `0` to `6` do).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnknownCcdPersistentContactPolicy(pub u8);

impl core::fmt::Display for UnknownCcdPersistentContactPolicy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown ccd_persistent_contact_policy {} (expected 0 Upstream, 1 CoreSphere, 2 CoreSphereFixedTargets, 3 KeepDepth, 4 KeepDepthBounded, 5 KeepSide or 6 KeepSideSurfaceBounds)",
            self.0
        )
    }
}

impl core::error::Error for UnknownCcdPersistentContactPolicy {}

#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(Serialize, Deserialize))]
// TODO: we should be able to combine this with MotorModel.
/// Coefficients for a spring, typically used for configuring constraint softness for contacts and
/// joints.
pub struct SpringCoefficients<N> {
    /// Sets the natural frequency (Hz) of the spring-like constraint.
    ///
    /// Higher values make the constraint stiffer and resolve constraint violations more quickly.
    pub natural_frequency: N,
    /// Sets the damping ratio for the spring-like constraint.
    ///
    /// Larger values make the joint more compliant (allowing more drift before stabilization).
    pub damping_ratio: N,
}

impl<N: SimdRealField<Element = Real> + Copy> SpringCoefficients<N> {
    /// Initializes spring coefficients from the spring natural frequency and damping ratio.
    pub fn new(natural_frequency: N, damping_ratio: N) -> Self {
        Self {
            natural_frequency,
            damping_ratio,
        }
    }

    /// Default softness coefficients for contacts (30 Hz, ζ = 10).
    /// The high ζ is load-bearing for large piles/stacks: softer contacts settle
    /// deeper under load, and the extra penetration keeps them wedging and creeping instead of resting.
    pub fn contact_defaults() -> Self {
        Self {
            natural_frequency: N::splat(30.0),
            damping_ratio: N::splat(10.0),
        }
    }

    /// Default softness coefficients for contacts touching a fixed body: twice the natural
    /// frequency of [`Self::contact_defaults`], holding piled/pushed
    /// bodies more firmly against walls and floors so they are less likely to squeeze through.
    pub fn contact_static_defaults() -> Self {
        Self {
            natural_frequency: N::splat(60.0),
            damping_ratio: N::splat(10.0),
        }
    }

    /// Default softness coefficients for joints.
    pub fn joint_defaults() -> Self {
        Self {
            natural_frequency: N::splat(1.0e6),
            damping_ratio: N::splat(1.0),
        }
    }

    /// The contact’s spring angular frequency for constraints regularization.
    pub fn angular_frequency(&self) -> N {
        self.natural_frequency * N::simd_two_pi()
    }

    /// The [`Self::erp`] coefficient, multiplied by the inverse timestep length.
    pub fn erp_inv_dt(&self, dt: N) -> N {
        let ang_freq = self.angular_frequency();
        ang_freq / (dt * ang_freq + N::splat(2.0) * self.damping_ratio)
    }

    /// The effective Error Reduction Parameter applied for calculating regularization forces.
    ///
    /// This parameter is computed automatically from [`Self::natural_frequency`],
    /// [`Self::damping_ratio`] and the substep length.
    pub fn erp(&self, dt: N) -> N {
        dt * self.erp_inv_dt(dt)
    }

    /// Compute CFM assuming a critically damped spring multiplied by the damping ratio.
    ///
    /// This coefficient softens the impulse applied at each solver iteration.
    pub fn cfm_coeff(&self, dt: N) -> N {
        let one = N::one();
        let erp = self.erp(dt);
        let erp_is_not_zero = erp.simd_ne(N::zero());

        let damped = {
            let inv_erp_minus_one = one / erp - one;

            // let stiffness = 4.0 * damping_ratio * damping_ratio * projected_mass
            //     / (dt * dt * inv_erp_minus_one * inv_erp_minus_one);
            // let damping = 4.0 * damping_ratio * damping_ratio * projected_mass
            //     / (dt * inv_erp_minus_one);
            // let cfm = 1.0 / (dt * dt * stiffness + dt * damping);
            // NOTE: This simplifies to cfm = cfm_coeff / projected_mass:
            inv_erp_minus_one * inv_erp_minus_one
                / ((one + inv_erp_minus_one)
                    * N::splat(4.0)
                    * self.damping_ratio
                    * self.damping_ratio)
        };
        let undamped = {
            // Undamped version if the damping ratio is zero.
            let dt_omega = dt * self.angular_frequency();
            one / (dt_omega * (dt_omega + N::splat(2.0) * self.damping_ratio))
        };

        let damping_is_zero = self.damping_ratio.simd_eq(N::zero());
        let result = undamped.select(damping_is_zero, damped);
        result.select(erp_is_not_zero, N::zero())
    }

    /// The CFM factor to be used in the constraint resolution.
    ///
    /// This parameter is computed automatically from [`Self::natural_frequency`],
    /// [`Self::damping_ratio`] and the substep length.
    pub fn cfm_factor(&self, dt: N) -> N {
        let one = N::one();
        let cfm_coeff = self.cfm_coeff(dt);

        // We use this coefficient inside the impulse resolution.
        // Surprisingly, several simplifications happen there.
        // Let `m` the projected mass of the constraint.
        // Let `m’` the projected mass that includes CFM: `m’ = 1 / (1 / m + cfm_coeff / m) = m / (1 + cfm_coeff)`
        // We have:
        // new_impulse = old_impulse - m’ (delta_vel - cfm * old_impulse)
        //             = old_impulse - m / (1 + cfm_coeff) * (delta_vel - cfm_coeff / m * old_impulse)
        //             = old_impulse * (1 - cfm_coeff / (1 + cfm_coeff)) - m / (1 + cfm_coeff) * delta_vel
        //             = old_impulse / (1 + cfm_coeff) - m * delta_vel / (1 + cfm_coeff)
        //             = 1 / (1 + cfm_coeff) * (old_impulse - m * delta_vel)
        // So, setting cfm_factor = 1 / (1 + cfm_coeff).
        // We obtain:
        // new_impulse = cfm_factor * (old_impulse - m * delta_vel)
        //
        // The value returned by this function is this cfm_factor that can be used directly
        // in the constraint solver.
        one / (one + cfm_coeff)
    }
}

/// Configuration parameters that control the physics simulation quality and behavior.
///
/// These parameters affect how the physics engine advances time, resolves collisions, and
/// maintains stability. The defaults work well for most games, but you may want to adjust
/// them based on your specific needs.
///
/// # Key parameters for beginners
///
/// - **`dt`**: Timestep duration (default: 1/60 second). Most games run physics at 60Hz.
/// - **`num_solver_iterations`**: More iterations = more accurate but slower (default: 4)
/// - **`length_unit`**: Scale factor if your world units aren't meters (e.g., 100 for pixel-based games)
///
/// # Example
///
/// ```
/// # use rapier3d::prelude::*;
/// // Standard 60 FPS physics with default settings
/// let mut integration_params = IntegrationParameters::default();
///
/// // For a more accurate (but slower) simulation:
/// integration_params.num_solver_iterations = 8;
///
/// // For pixel-based 2D games where 100 pixels = 1 meter:
/// integration_params.length_unit = 100.0;
/// ```
///
/// Most other parameters are advanced settings for fine-tuning stability and performance.
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(Serialize, Deserialize))]
pub struct IntegrationParameters {
    /// The timestep length - how much simulated time passes per physics step (default: `1.0 / 60.0`).
    ///
    /// Set this to `1.0 / your_target_fps`. For example:
    /// - 60 FPS: `1.0 / 60.0` ≈ 0.0167 seconds
    /// - 120 FPS: `1.0 / 120.0` ≈ 0.0083 seconds
    ///
    /// Smaller timesteps are more accurate but require more CPU time per second of simulated time.
    ///
    /// With a zero (or negative) `dt`, [`PhysicsPipeline::step`](crate::pipeline::PhysicsPipeline::step)
    /// only applies the user changes and updates the collision detection (contacts, collision
    /// events, scene queries): no time passes, so no body moves (kinematic bodies included) and
    /// velocities are left untouched.
    pub dt: Real,
    /// Minimum timestep size when using CCD with multiple substeps (default: `1.0 / 60.0 / 100.0`).
    ///
    /// When CCD with multiple substeps is enabled, the timestep is subdivided
    /// into smaller pieces. This timestep subdivision won't generate timestep
    /// lengths smaller than `min_ccd_dt`.
    ///
    /// Setting this to a large value will reduce the opportunity to performing
    /// CCD substepping, resulting in potentially more time dropped by the
    /// motion-clamping mechanism. Setting this to an very small value may lead
    /// to numerical instabilities.
    pub min_ccd_dt: Real,

    /// Softness coefficients for contact constraints.
    pub contact_softness: SpringCoefficients<Real>,

    /// Softness coefficients for contact constraints where one side is a fixed body.
    ///
    /// Stiffer than [`Self::contact_softness`] by default so bodies are
    /// held firmly against static walls/floors; set equal to [`Self::contact_softness`] to disable.
    pub static_contact_softness: SpringCoefficients<Real>,

    /// The coefficient in `[0, 1]` applied to warmstart impulses, i.e., impulses that are used as the
    /// initial solution (instead of 0) at the next simulation step.
    ///
    /// This should generally be set to 1.
    ///
    /// (default `1.0`).
    pub warmstart_coefficient: Real,

    /// The scale factor for your world if you're not using meters (default: `1.0`).
    ///
    /// Rapier is tuned for human-scale objects measured in meters. If your game uses different
    /// units, set this to how many of your units equal 1 meter in the real world.
    ///
    /// **Examples:**
    /// - Your game uses meters: `length_unit = 1.0` (default)
    /// - Your game uses centimeters: `length_unit = 100.0` (100 cm = 1 m)
    /// - Pixel-based 2D game where typical objects are 100 pixels tall: `length_unit = 100.0`
    /// - Your game uses feet: `length_unit = 3.28` (approximately)
    ///
    /// This automatically scales various internal tolerances and thresholds to work correctly
    /// with your chosen units.
    pub length_unit: Real,

    /// Settings shared by every soft body: tangle recovery, strained-constraint re-sweep, impact
    /// substeps, contact stiffening and FEM solver tuning (see [`SoftBodiesSettings`]).
    ///
    /// [`SoftBodiesSettings`]: crate::dynamics::SoftBodiesSettings
    #[cfg(feature = "alloc")]
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub soft_bodies: crate::dynamics::SoftBodiesSettings,

    /// Geometric slop distance (default: `0.005`), e.g. the standoff kept
    /// by the CCD clamp. NOT a deadzone on the position-correction bias: penetrations are corrected
    /// all the way to zero; a deadzone would keep loaded piles wedging and creeping.
    ///
    /// This value is implicitly scaled by [`IntegrationParameters::length_unit`].
    pub normalized_allowed_linear_error: Real,
    /// Maximum speed at which contact penetration is pushed out by the biased solve
    /// (default: `3.0`).
    ///
    /// Capping this recovery velocity keeps deep penetrations from being resolved explosively.
    /// This value is implicitly scaled by [`IntegrationParameters::length_unit`].
    pub normalized_max_corrective_velocity: Real,
    /// The maximal distance separating two objects that will generate predictive contacts (default: `0.02`).
    ///
    /// This value is implicitly scaled by [`IntegrationParameters::length_unit`].
    pub normalized_prediction_distance: Real,
    /// Maximum linear velocity a body may have after each solver substep (default: `400.0` m/s).
    /// Bounding per-step travel keeps CCD and speculative contacts
    /// reliable (a body cannot be flung or crushed to an arbitrary speed); set to `Real::MAX` to disable.
    ///
    /// This value is implicitly scaled by [`IntegrationParameters::length_unit`].
    pub normalized_max_linear_velocity: Real,
    /// The number of solver iterations run by the constraints solver for calculating forces (default: `4`).
    ///
    /// Higher values produce more accurate and stable simulations at the cost of performance.
    /// - `4` (default): Good balance for most games
    /// - `8-12`: Use for demanding scenarios (stacks of objects, complex machinery)
    /// - `1-2`: Use if performance is critical and accuracy can be sacrificed
    pub num_solver_iterations: usize,
    /// Number of internal Project Gauss Seidel (PGS) iterations run at each solver iteration (default: `1`).
    pub num_internal_pgs_iterations: usize,
    /// The number of stabilization iterations run at each solver iterations (default: `1`).
    pub num_internal_stabilization_iterations: usize,
    /// Maximum number of CCD substeps performed by the solver (default: `1`).
    ///
    /// Also the global CCD on/off switch: `0` disables **all** CCD for the world (including the
    /// automatic CCD of fast dynamic bodies vs fixed colliders).
    pub max_ccd_substeps: usize,
    /// If enabled, contact manifolds of a collider pair sharing (nearly) the same normal are merged
    /// into one "cluster" manifold before constraint generation (default: `true`, 3D only), so at
    /// most 4 contact points are solved per contact plane — a large solver win on composite shapes
    /// (meshes, heightfields, compounds, voxels) that emit one manifold per subshape. When clustering
    /// applies, read solver contacts/impulses from [`crate::geometry::RigidPairContacts::solver_clusters`],
    /// not [`crate::geometry::ContactPair::manifolds`].
    pub contact_clustering: bool,
    /// If enabled, a contact pair whose relative pose moved less than [`Self::contact_recycle_distance`]
    /// since its last full narrow-phase update skips contact determination and keeps its existing points
    /// (default: `true`) — a large speed-up for quasi-static scenes. Trade-offs:
    /// contact features and user-facing contact data (`dist`, is-new bits) may be stale by up to that
    /// distance, and per-step joint-based contact filtering is skipped until the pair moves.
    /// [`crate::pipeline::ActiveHooks`] pairs are never recycled.
    pub contact_recycling: bool,
    /// Maximum relative-pose drift (translation plus rotation-arc) below which a contact pair may
    /// be recycled instead of fully updated (default: `0.05`, i.e. ten times the linear slop,
    /// multiplied by [`Self::length_unit`]). Only used when [`Self::contact_recycling`] is enabled.
    pub normalized_contact_recycle_distance: Real,
    /// If `false`, friction is only solved during the unbiased (relax) pass of each substep instead
    /// of both passes (default: `false`, the "no friction when applying bias" rule).
    /// This makes contact kernels much cheaper and is load-bearing for tall stacks: friction
    /// reacting to bias velocities pumps their coherent lean mode until they topple. If
    /// [`Self::num_internal_stabilization_iterations`] is zero there is no unbiased pass and this flag is ignored.
    pub friction_in_bias_pass: bool,
    /// If enabled, impulse-joint constraints are warm-started like contacts: impulses accumulated
    /// by the previous step are re-applied (scaled by [`Self::warmstart_coefficient`]) at the start
    /// of each substep instead of restarting from zero (default: `false`). This
    /// noticeably improves convergence of stiff joint assemblies. Multibody joints are unaffected.
    pub warmstart_joints: bool,
    /// The type of friction constraints used in the simulation.
    #[cfg(feature = "dim3")]
    pub friction_model: FrictionModel,
    /// Sweep bullet pairs on **both** bodies' motions (default: [`CcdRelativeMotion::Off`],
    /// upstream's behaviour).
    ///
    /// When on, a bullet (a dynamic body with [`RigidBody::is_ccd_enabled`](crate::dynamics::RigidBody::is_ccd_enabled))
    /// sweeps every kinematic/dynamic target along the target's own start-to-end motion of the same
    /// step (found through bounds that cover that whole motion) instead of freezing it at its end
    /// pose; bullets also sweep other bullets (each pair once). A hit clamps both dynamic bodies of
    /// the pair to the pair's time of impact — each body takes the earliest of its pairs, along the
    /// motion model that time was computed on; kinematic bodies are never clamped; velocities are
    /// kept. Moving pairs stop `allowed_linear_error` apart whatever the shapes' radii. With
    /// `Off`, every trajectory is bit-identical to upstream rapier3d 0.36.1.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub ccd_relative_motion: CcdRelativeMotion,
    /// What the continuous pass does with a pair that starts in contact (default:
    /// [`CcdPersistentContactPolicy::Upstream`], upstream's behaviour: such pairs are ignored and
    /// left to the contact solver).
    ///
    /// See [`CcdPersistentContactPolicy`] for the other rules. The substep splitter
    /// (`max_ccd_substeps > 1`) keeps upstream's rule. With `Upstream` (and
    /// [`Self::ccd_relative_motion`] off), every trajectory is bit-identical to upstream
    /// rapier3d 0.36.1.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub ccd_persistent_contact_policy: CcdPersistentContactPolicy,
}

impl IntegrationParameters {
    /// The inverse of the time-stepping length, i.e. the steps per seconds (Hz).
    ///
    /// This is zero if `self.dt` is zero.
    #[inline]
    pub fn inv_dt(&self) -> Real {
        if self.dt == 0.0 { 0.0 } else { 1.0 / self.dt }
    }

    /// Sets the time-stepping length.
    #[inline]
    #[deprecated = "You can just set the `IntegrationParams::dt` value directly"]
    pub fn set_dt(&mut self, dt: Real) {
        assert!(dt >= 0.0, "The time-stepping length cannot be negative.");
        self.dt = dt;
    }

    /// Sets the inverse time-stepping length (i.e. the frequency).
    ///
    /// This automatically recompute `self.dt`.
    #[inline]
    pub fn set_inv_dt(&mut self, inv_dt: Real) {
        if inv_dt == 0.0 {
            self.dt = 0.0
        } else {
            self.dt = 1.0 / inv_dt
        }
    }

    /// Amount of penetration the engine won't attempt to correct (default: `0.001` multiplied by
    /// [`Self::length_unit`]).
    pub fn allowed_linear_error(&self) -> Real {
        self.normalized_allowed_linear_error * self.length_unit
    }

    /// Maximum amount of penetration the solver will attempt to resolve in one timestep.
    ///
    /// This is equal to [`Self::normalized_max_corrective_velocity`] multiplied by
    /// [`Self::length_unit`].
    pub fn max_corrective_velocity(&self) -> Real {
        if self.normalized_max_corrective_velocity != Real::MAX {
            self.normalized_max_corrective_velocity * self.length_unit
        } else {
            Real::MAX
        }
    }

    /// The maximal distance separating two objects that will generate predictive contacts
    /// (default: `0.02` multiplied by [`Self::length_unit`]).
    pub fn prediction_distance(&self) -> Real {
        self.normalized_prediction_distance * self.length_unit
    }

    /// Maximum linear velocity a body may have after each solver substep.
    ///
    /// This is equal to [`Self::normalized_max_linear_velocity`] multiplied by
    /// [`Self::length_unit`], or `Real::MAX` when the linear speed cap is disabled.
    pub fn max_linear_velocity(&self) -> Real {
        if self.normalized_max_linear_velocity != Real::MAX {
            self.normalized_max_linear_velocity * self.length_unit
        } else {
            Real::MAX
        }
    }

    /// Maximum relative-pose drift below which a contact pair can be recycled instead of fully
    /// updated: [`Self::normalized_contact_recycle_distance`] multiplied by [`Self::length_unit`].
    /// Only used when [`Self::contact_recycling`] is enabled.
    pub fn contact_recycle_distance(&self) -> Real {
        self.normalized_contact_recycle_distance * self.length_unit
    }
}

impl Default for IntegrationParameters {
    fn default() -> Self {
        Self {
            dt: 1.0 / 60.0,
            min_ccd_dt: 1.0 / 60.0 / 100.0,
            contact_softness: SpringCoefficients::contact_defaults(),
            static_contact_softness: SpringCoefficients::contact_static_defaults(),
            warmstart_coefficient: 1.0,
            num_internal_pgs_iterations: 1,
            num_internal_stabilization_iterations: 1,
            num_solver_iterations: 4,
            normalized_allowed_linear_error: 0.005,
            normalized_max_corrective_velocity: 3.0,
            // Four times the linear slop. A larger speculative
            // margin generates contacts earlier, which (together with oriented/one-sided static
            // geometry) keeps fast/piled bodies from tunneling through thin walls.
            normalized_prediction_distance: 0.02,
            normalized_max_linear_velocity: 400.0,
            max_ccd_substeps: 1,
            contact_clustering: true,
            contact_recycling: true,
            normalized_contact_recycle_distance: 0.05,
            friction_in_bias_pass: false,
            warmstart_joints: false,
            length_unit: 1.0,
            #[cfg(feature = "alloc")]
            soft_bodies: Default::default(),
            #[cfg(feature = "dim3")]
            friction_model: FrictionModel::default(),
            ccd_relative_motion: CcdRelativeMotion::Off,
            ccd_persistent_contact_policy: CcdPersistentContactPolicy::Upstream,
        }
    }
}

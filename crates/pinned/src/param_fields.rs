//! Every field of [`IntegrationParameters`] by name, with its value: what a physics-version's
//! digest covers and what `rapier-pinned versions --fields` prints. One exhaustive destructuring,
//! so a field added upstream fails to compile here instead of escaping the digest.

use crate::diff::{FieldValue, Fields};
use rapier3d::dynamics::{
    IntegrationParameters, SoftBodiesSettings, SoftRecoverySettings, SpringCoefficients,
};

/// Every [`IntegrationParameters`] field (nested ones as `a.b.c`) with its value (printed
/// bit-exact).
///
/// Exhaustive: a field added upstream fails to compile here.
pub fn param_fields(p: &IntegrationParameters) -> Fields {
    let IntegrationParameters {
        dt,
        min_ccd_dt,
        contact_softness,
        static_contact_softness,
        warmstart_coefficient,
        length_unit,
        soft_bodies,
        normalized_allowed_linear_error,
        normalized_max_corrective_velocity,
        normalized_prediction_distance,
        normalized_max_linear_velocity,
        num_solver_iterations,
        num_internal_pgs_iterations,
        num_internal_stabilization_iterations,
        max_ccd_substeps,
        contact_clustering,
        contact_recycling,
        normalized_contact_recycle_distance,
        friction_in_bias_pass,
        warmstart_joints,
        friction_model,
        ccd_relative_motion,
        ccd_persistent_contact_policy,
    } = *p;
    let SoftBodiesSettings {
        recovery,
        resweep_strain,
        max_extra_substeps,
        contact_stiffening,
    } = soft_bodies;
    let SoftRecoverySettings {
        authored_velocity_margin,
        edge_speculation,
        inverted_cell_detection,
        self_crossing_detection,
        detection_motion_gating,
        cross_body_detection,
        self_stand_down,
        cross_body_expel_gate,
        edge_stand_down,
        crossing_repulsion,
        crossing_repulsion_guide,
        crossing_repulsion_self_guide,
        recovery_pace,
        overlap_constraints,
        overlap_rigid,
        overlap_skip_self_tangled,
        overlap_edge_stand_down,
        overlap_constraint_pace,
        overlap_patch_constraints,
        overlap_skin_volume,
        overlap_kept_depth,
        overlap_self_regions,
        overlap_normal_push,
        overlap_multi_volume,
        overlap_split,
        overlap_patience,
        overlap_progress_margin,
    } = recovery;
    use FieldValue::*;
    let spring = |s: SpringCoefficients<f32>| [Real(s.natural_frequency), Real(s.damping_ratio)];
    let [cs_f, cs_d] = spring(contact_softness);
    let [ss_f, ss_d] = spring(static_contact_softness);
    vec![
        ("dt", Real(dt)),
        ("min_ccd_dt", Real(min_ccd_dt)),
        ("contact_softness.natural_frequency", cs_f),
        ("contact_softness.damping_ratio", cs_d),
        ("static_contact_softness.natural_frequency", ss_f),
        ("static_contact_softness.damping_ratio", ss_d),
        ("warmstart_coefficient", Real(warmstart_coefficient)),
        ("length_unit", Real(length_unit)),
        (
            "soft_bodies.recovery.authored_velocity_margin",
            Flag(authored_velocity_margin),
        ),
        (
            "soft_bodies.recovery.edge_speculation",
            Flag(edge_speculation),
        ),
        (
            "soft_bodies.recovery.inverted_cell_detection",
            Flag(inverted_cell_detection),
        ),
        (
            "soft_bodies.recovery.self_crossing_detection",
            Flag(self_crossing_detection),
        ),
        (
            "soft_bodies.recovery.detection_motion_gating",
            Flag(detection_motion_gating),
        ),
        (
            "soft_bodies.recovery.cross_body_detection",
            Flag(cross_body_detection),
        ),
        (
            "soft_bodies.recovery.self_stand_down",
            Flag(self_stand_down),
        ),
        (
            "soft_bodies.recovery.cross_body_expel_gate",
            Flag(cross_body_expel_gate),
        ),
        (
            "soft_bodies.recovery.edge_stand_down",
            Flag(edge_stand_down),
        ),
        (
            "soft_bodies.recovery.crossing_repulsion",
            Flag(crossing_repulsion),
        ),
        (
            "soft_bodies.recovery.crossing_repulsion_guide",
            Flag(crossing_repulsion_guide),
        ),
        (
            "soft_bodies.recovery.crossing_repulsion_self_guide",
            Flag(crossing_repulsion_self_guide),
        ),
        ("soft_bodies.recovery.recovery_pace", Real(recovery_pace)),
        (
            "soft_bodies.recovery.overlap_constraints",
            Flag(overlap_constraints),
        ),
        ("soft_bodies.recovery.overlap_rigid", Flag(overlap_rigid)),
        (
            "soft_bodies.recovery.overlap_skip_self_tangled",
            Flag(overlap_skip_self_tangled),
        ),
        (
            "soft_bodies.recovery.overlap_edge_stand_down",
            Flag(overlap_edge_stand_down),
        ),
        (
            "soft_bodies.recovery.overlap_constraint_pace",
            Real(overlap_constraint_pace),
        ),
        (
            "soft_bodies.recovery.overlap_patch_constraints",
            PatchConstraints(overlap_patch_constraints),
        ),
        (
            "soft_bodies.recovery.overlap_skin_volume",
            Flag(overlap_skin_volume),
        ),
        (
            "soft_bodies.recovery.overlap_kept_depth",
            Real(overlap_kept_depth),
        ),
        (
            "soft_bodies.recovery.overlap_self_regions",
            Flag(overlap_self_regions),
        ),
        (
            "soft_bodies.recovery.overlap_normal_push",
            Flag(overlap_normal_push),
        ),
        (
            "soft_bodies.recovery.overlap_multi_volume",
            Flag(overlap_multi_volume),
        ),
        (
            "soft_bodies.recovery.overlap_split",
            Whole(overlap_split.into()),
        ),
        (
            "soft_bodies.recovery.overlap_patience",
            Whole(overlap_patience.into()),
        ),
        (
            "soft_bodies.recovery.overlap_progress_margin",
            Real(overlap_progress_margin),
        ),
        ("soft_bodies.resweep_strain", Real(resweep_strain)),
        (
            "soft_bodies.max_extra_substeps",
            Whole(max_extra_substeps as u64),
        ),
        ("soft_bodies.contact_stiffening", Real(contact_stiffening)),
        (
            "normalized_allowed_linear_error",
            Real(normalized_allowed_linear_error),
        ),
        (
            "normalized_max_corrective_velocity",
            Real(normalized_max_corrective_velocity),
        ),
        (
            "normalized_prediction_distance",
            Real(normalized_prediction_distance),
        ),
        (
            "normalized_max_linear_velocity",
            Real(normalized_max_linear_velocity),
        ),
        ("num_solver_iterations", Whole(num_solver_iterations as u64)),
        (
            "num_internal_pgs_iterations",
            Whole(num_internal_pgs_iterations as u64),
        ),
        (
            "num_internal_stabilization_iterations",
            Whole(num_internal_stabilization_iterations as u64),
        ),
        ("max_ccd_substeps", Whole(max_ccd_substeps as u64)),
        ("contact_clustering", Flag(contact_clustering)),
        ("contact_recycling", Flag(contact_recycling)),
        (
            "normalized_contact_recycle_distance",
            Real(normalized_contact_recycle_distance),
        ),
        ("friction_in_bias_pass", Flag(friction_in_bias_pass)),
        ("warmstart_joints", Flag(warmstart_joints)),
        ("friction_model", FrictionModel(friction_model)),
        ("ccd_relative_motion", CcdMode(ccd_relative_motion)),
        (
            "ccd_persistent_contact_policy",
            CcdPolicy(ccd_persistent_contact_policy),
        ),
    ]
}

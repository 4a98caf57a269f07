//! The soft-body classes of stock's raw interface. This build has no soft bodies (docs/js.md):
//! each class's constructor and each member throws "not supported by this build", naming the
//! class and member. The member lists are stock's `rapier_wasm3d.d.ts`'s names; the world's
//! (always empty) `RawSoftBodySet` itself is in sets.rs.

use wasm_bindgen::prelude::*;

use crate::interface::unsupported;
use crate::sets::RawSoftBodySet;

/// Declares stock's members of a soft-body class, each throwing: `methods` take `self`,
/// `functions` are static, `properties` pair a getter with its setter's Rust name (macro_rules
/// cannot build one name from another). `struct` first declares the class, with a constructor
/// that throws.
macro_rules! soft_body_class {
    (struct $class:ident $members:tt) => {
        /// Soft bodies are not supported by this build: the constructor throws.
        #[wasm_bindgen]
        pub struct $class;

        #[wasm_bindgen]
        impl $class {
            #[wasm_bindgen(constructor)]
            pub fn new() -> Result<$class, JsValue> {
                Err(unsupported(stringify!($class)))
            }
        }

        soft_body_class!($class $members);
    };
    ($class:ident {
        methods: [$($method:ident),* $(,)?],
        functions: [$($function:ident),* $(,)?],
        properties: [$($property:ident / $setter:ident),* $(,)?] $(,)?
    }) => {
        #[allow(non_snake_case)]
        #[wasm_bindgen]
        impl $class {
            $(
                #[wasm_bindgen(js_name = $method)]
                pub fn $method(&self) -> Result<JsValue, JsValue> {
                    Err(unsupported(concat!(stringify!($class), ".", stringify!($method))))
                }
            )*
            $(
                #[wasm_bindgen(js_name = $function)]
                pub fn $function() -> Result<JsValue, JsValue> {
                    Err(unsupported(concat!(stringify!($class), ".", stringify!($function))))
                }
            )*
            $(
                #[wasm_bindgen(getter = $property)]
                pub fn $property(&self) -> Result<JsValue, JsValue> {
                    Err(unsupported(concat!(stringify!($class), ".", stringify!($property))))
                }
                #[wasm_bindgen(setter = $property)]
                pub fn $setter(&mut self, _value: JsValue) -> Result<(), JsValue> {
                    Err(unsupported(concat!(stringify!($class), ".", stringify!($property))))
                }
            )*
        }
    };
}

soft_body_class!(RawSoftBodySet {
    methods: [
        addCluster,
        cut,
        removeCluster,
        remove,
        sbAddForce,
        sbAddParticleForce,
        sbApplyImpulseAtPoint,
        sbApplyImpulse,
        sbApplyParticleImpulse,
        sbApplyRadialImpulse,
        sbAttachParticle,
        sbAttachmentBody,
        sbAttachmentParticle,
        sbBoundary,
        sbCellModel,
        sbCellRestVolume,
        sbCellStiffnessScale,
        sbCellStress,
        sbCellTearResistance,
        sbCells,
        sbCenterOfMass,
        sbClusterParticles,
        sbClusterProxy,
        sbClusterShapeMatchingEnabled,
        sbDetachParticle,
        sbDihedralRestAngle,
        sbDihedrals,
        sbEdgeImpulse,
        sbEdgeIsBend,
        sbEdgePlasticStrain,
        sbEdgeRestLength,
        sbEdgeStress,
        sbEdgeTearResistance,
        sbEdges,
        sbEnableClusterShapeMatching,
        sbEnableVolumePreservation,
        sbGravityScale,
        sbHasPendingTears,
        sbIsClusterLive,
        sbIsEnabled,
        sbIsParticleDamaged,
        sbIsParticleOnSurface,
        sbIsParticlePinned,
        sbIsSleeping,
        sbLinearDamping,
        sbMass,
        sbMaterial,
        sbMeshCluster,
        sbMeshCollider,
        sbMeshCollisionEnabled,
        sbMeshIndices,
        sbMeshIsOriented,
        sbMeshIsSkinned,
        sbMeshOfCollider,
        sbMeshVertices,
        sbNumAttachments,
        sbNumCells,
        sbNumClusters,
        sbNumDihedrals,
        sbNumEdges,
        sbNumMeshes,
        sbNumParticles,
        sbOrigin,
        sbParticleMass,
        sbParticlePosition,
        sbParticlePositions,
        sbParticleRadius,
        sbParticleRestPosition,
        sbParticleVelocities,
        sbParticleVelocity,
        sbPieces,
        sbResetForces,
        sbResetPlasticity,
        sbRestVolume,
        sbRootBody,
        sbSetAdditionalPgsIterations,
        sbSetClusterEdgeSoftness,
        sbSetClusterKinematicTarget,
        sbSetClusterPinned,
        sbSetClusterStiffnessScale,
        sbSetClusterTearResistance,
        sbSetEnabled,
        sbSetMaterial,
        sbSetParticleKinematicTarget,
        sbSetParticlePinned,
        sbSetParticlePosition,
        sbSetParticleVelocity,
        sbSetSolver,
        sbSetUserData,
        sbSetVolumeFactor,
        sbSolver,
        sbTearCell,
        sbTearEdge,
        sbTopologyVersion,
        sbUserData,
        sbVolumeFactor,
        sbVolumePreservationEnabled,
        sbVolume,
        sbWakeUp,
        tear,
    ],
    functions: [],
    properties: [],
});

soft_body_class!(struct RawSoftBodyBuilder {
    methods: [
        addEdges, append, cellEdges, material, numParticles, particlePositions,
        setAdditionalPgsIterations, setAdditionalSolverIterations, setBendEdges, setCanSleep,
        setCellModel, setCells, setDihedrals, setDominanceGroup, setEdgeSoftness,
        setEdgeTearResistance, setEdges, setGravityScale, setLinearDamping, setMass, setMasses,
        setMaterial, setNoSurfaceCollider, setOriented, setParticleMass, setParticleRadius,
        setPinnedParticles, setPositions, setSelfContacts, setShapeMatching, setSkinCollision,
        setSkin, setSoftness, setSolver, setSurfaceCollider, setSurface, setTensionOnly,
        setVolumeFactor, setVolumePreservation, setWire, surfaceDihedrals, surfaceEdges, translated,
    ],
    functions: [
        clothAnisotropic, clothTube, cloth, cuboid, rope, sphere, trimesh, volumetric,
    ],
    properties: [],
});

soft_body_class!(struct RawSoftBodyMaterial {
    methods: [
        tears,
    ],
    functions: [
        uniform,
    ],
    properties: [
        bendDampingRatio / set_bendDampingRatio, bendFrequency / set_bendFrequency,
        deformationDamping / set_deformationDamping, edgeDampingRatio / set_edgeDampingRatio,
        edgeFrequency / set_edgeFrequency, edgePlasticCreep / set_edgePlasticCreep,
        edgePlasticFlow / set_edgePlasticFlow, edgePlasticMax / set_edgePlasticMax,
        edgePlasticYield / set_edgePlasticYield, elasticDampingRatio / set_elasticDampingRatio,
        interiorStrength / set_interiorStrength, maxTearsPerStep / set_maxTearsPerStep,
        minPiece / set_minPiece, plasticCreep / set_plasticCreep, plasticMax / set_plasticMax,
        plasticYield / set_plasticYield, poissonRatio / set_poissonRatio,
        shapeMatchingDampingRatio / set_shapeMatchingDampingRatio,
        shapeMatchingFrequency / set_shapeMatchingFrequency, tearForce / set_tearForce,
        tearSmoothing / set_tearSmoothing, tearStrain / set_tearStrain,
        volumeDampingRatio / set_volumeDampingRatio, volumeFrequency / set_volumeFrequency,
        youngModulus / set_youngModulus,
    ],
});

soft_body_class!(struct RawSoftRecoverySettings {
    methods: [],
    functions: [],
    properties: [
        authoredVelocityMargin / set_authoredVelocityMargin,
        crossBodyDetection / set_crossBodyDetection, crossBodyExpelGate / set_crossBodyExpelGate,
        crossingRepulsionGuide / set_crossingRepulsionGuide,
        crossingRepulsionSelfGuide / set_crossingRepulsionSelfGuide,
        crossingRepulsion / set_crossingRepulsion,
        detectionMotionGating / set_detectionMotionGating, edgeSpeculation / set_edgeSpeculation,
        edgeStandDown / set_edgeStandDown, invertedCellDetection / set_invertedCellDetection,
        overlapConstraintPace / set_overlapConstraintPace,
        overlapConstraints / set_overlapConstraints,
        overlapEdgeStandDown / set_overlapEdgeStandDown, overlapKeptDepth / set_overlapKeptDepth,
        overlapMultiVolume / set_overlapMultiVolume, overlapNormalPush / set_overlapNormalPush,
        overlapPatchConstraints / set_overlapPatchConstraints,
        overlapPatience / set_overlapPatience, overlapProgressMargin / set_overlapProgressMargin,
        overlapRigid / set_overlapRigid, overlapSelfRegions / set_overlapSelfRegions,
        overlapSkinVolume / set_overlapSkinVolume,
        overlapSkipSelfTangled / set_overlapSkipSelfTangled, overlapSplit / set_overlapSplit,
        recoveryPace / set_recoveryPace, selfCrossingDetection / set_selfCrossingDetection,
        selfStandDown / set_selfStandDown,
    ],
});

soft_body_class!(struct RawSoftBodyTearEvent {
    methods: [
        clusterSplitCluster, clusterSplitKeepsProxy, clusterSplitProxy, clusterSplitSoftBody,
        clusterSplitSource, insertedParticles, movedJointFrom, movedJointTo, movedJoint,
        numClusterSplits, numMovedJoints, numPieces, particleDestinationBody,
        particleDestinationIndex, pieceClusters, pieceParticles, pieceSoftBody, removedEdges, seeds,
        softBody, splitParticles, tornCells, tornEdges,
    ],
    functions: [],
    properties: [],
});

//! The soft-body members of stock's raw interface: this build has no soft bodies, so each one
//! throws "not supported by this build" (docs/js.md). Generated once from stock's
//! `rapier_wasm3d.d.ts` (its names only); the constructors are in debug.rs.

use wasm_bindgen::prelude::*;

use crate::debug::{
    RawSoftBodyBuilder, RawSoftBodyMaterial, RawSoftBodyTearEvent, RawSoftRecoverySettings,
};
use crate::sets::RawSoftBodySet;
use crate::unsupported;

#[allow(non_snake_case)]
#[wasm_bindgen]
impl RawSoftBodySet {
    #[wasm_bindgen(js_name = addCluster)]
    pub fn addCluster(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.addCluster"))
    }
    #[wasm_bindgen(js_name = cut)]
    pub fn cut(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.cut"))
    }
    #[wasm_bindgen(js_name = removeCluster)]
    pub fn removeCluster(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.removeCluster"))
    }
    #[wasm_bindgen(js_name = remove)]
    pub fn remove(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.remove"))
    }
    #[wasm_bindgen(js_name = sbAddForce)]
    pub fn sbAddForce(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbAddForce"))
    }
    #[wasm_bindgen(js_name = sbAddParticleForce)]
    pub fn sbAddParticleForce(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbAddParticleForce"))
    }
    #[wasm_bindgen(js_name = sbApplyImpulseAtPoint)]
    pub fn sbApplyImpulseAtPoint(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbApplyImpulseAtPoint"))
    }
    #[wasm_bindgen(js_name = sbApplyImpulse)]
    pub fn sbApplyImpulse(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbApplyImpulse"))
    }
    #[wasm_bindgen(js_name = sbApplyParticleImpulse)]
    pub fn sbApplyParticleImpulse(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbApplyParticleImpulse"))
    }
    #[wasm_bindgen(js_name = sbApplyRadialImpulse)]
    pub fn sbApplyRadialImpulse(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbApplyRadialImpulse"))
    }
    #[wasm_bindgen(js_name = sbAttachParticle)]
    pub fn sbAttachParticle(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbAttachParticle"))
    }
    #[wasm_bindgen(js_name = sbAttachmentBody)]
    pub fn sbAttachmentBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbAttachmentBody"))
    }
    #[wasm_bindgen(js_name = sbAttachmentParticle)]
    pub fn sbAttachmentParticle(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbAttachmentParticle"))
    }
    #[wasm_bindgen(js_name = sbBoundary)]
    pub fn sbBoundary(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbBoundary"))
    }
    #[wasm_bindgen(js_name = sbCellModel)]
    pub fn sbCellModel(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCellModel"))
    }
    #[wasm_bindgen(js_name = sbCellRestVolume)]
    pub fn sbCellRestVolume(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCellRestVolume"))
    }
    #[wasm_bindgen(js_name = sbCellStiffnessScale)]
    pub fn sbCellStiffnessScale(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCellStiffnessScale"))
    }
    #[wasm_bindgen(js_name = sbCellStress)]
    pub fn sbCellStress(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCellStress"))
    }
    #[wasm_bindgen(js_name = sbCellTearResistance)]
    pub fn sbCellTearResistance(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCellTearResistance"))
    }
    #[wasm_bindgen(js_name = sbCells)]
    pub fn sbCells(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCells"))
    }
    #[wasm_bindgen(js_name = sbCenterOfMass)]
    pub fn sbCenterOfMass(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbCenterOfMass"))
    }
    #[wasm_bindgen(js_name = sbClusterParticles)]
    pub fn sbClusterParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbClusterParticles"))
    }
    #[wasm_bindgen(js_name = sbClusterProxy)]
    pub fn sbClusterProxy(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbClusterProxy"))
    }
    #[wasm_bindgen(js_name = sbClusterShapeMatchingEnabled)]
    pub fn sbClusterShapeMatchingEnabled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbClusterShapeMatchingEnabled"))
    }
    #[wasm_bindgen(js_name = sbDetachParticle)]
    pub fn sbDetachParticle(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbDetachParticle"))
    }
    #[wasm_bindgen(js_name = sbDihedralRestAngle)]
    pub fn sbDihedralRestAngle(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbDihedralRestAngle"))
    }
    #[wasm_bindgen(js_name = sbDihedrals)]
    pub fn sbDihedrals(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbDihedrals"))
    }
    #[wasm_bindgen(js_name = sbEdgeImpulse)]
    pub fn sbEdgeImpulse(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgeImpulse"))
    }
    #[wasm_bindgen(js_name = sbEdgeIsBend)]
    pub fn sbEdgeIsBend(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgeIsBend"))
    }
    #[wasm_bindgen(js_name = sbEdgePlasticStrain)]
    pub fn sbEdgePlasticStrain(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgePlasticStrain"))
    }
    #[wasm_bindgen(js_name = sbEdgeRestLength)]
    pub fn sbEdgeRestLength(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgeRestLength"))
    }
    #[wasm_bindgen(js_name = sbEdgeStress)]
    pub fn sbEdgeStress(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgeStress"))
    }
    #[wasm_bindgen(js_name = sbEdgeTearResistance)]
    pub fn sbEdgeTearResistance(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdgeTearResistance"))
    }
    #[wasm_bindgen(js_name = sbEdges)]
    pub fn sbEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEdges"))
    }
    #[wasm_bindgen(js_name = sbEnableClusterShapeMatching)]
    pub fn sbEnableClusterShapeMatching(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEnableClusterShapeMatching"))
    }
    #[wasm_bindgen(js_name = sbEnableVolumePreservation)]
    pub fn sbEnableVolumePreservation(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbEnableVolumePreservation"))
    }
    #[wasm_bindgen(js_name = sbGravityScale)]
    pub fn sbGravityScale(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbGravityScale"))
    }
    #[wasm_bindgen(js_name = sbHasPendingTears)]
    pub fn sbHasPendingTears(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbHasPendingTears"))
    }
    #[wasm_bindgen(js_name = sbIsClusterLive)]
    pub fn sbIsClusterLive(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsClusterLive"))
    }
    #[wasm_bindgen(js_name = sbIsEnabled)]
    pub fn sbIsEnabled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsEnabled"))
    }
    #[wasm_bindgen(js_name = sbIsParticleDamaged)]
    pub fn sbIsParticleDamaged(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsParticleDamaged"))
    }
    #[wasm_bindgen(js_name = sbIsParticleOnSurface)]
    pub fn sbIsParticleOnSurface(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsParticleOnSurface"))
    }
    #[wasm_bindgen(js_name = sbIsParticlePinned)]
    pub fn sbIsParticlePinned(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsParticlePinned"))
    }
    #[wasm_bindgen(js_name = sbIsSleeping)]
    pub fn sbIsSleeping(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbIsSleeping"))
    }
    #[wasm_bindgen(js_name = sbLinearDamping)]
    pub fn sbLinearDamping(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbLinearDamping"))
    }
    #[wasm_bindgen(js_name = sbMass)]
    pub fn sbMass(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMass"))
    }
    #[wasm_bindgen(js_name = sbMaterial)]
    pub fn sbMaterial(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMaterial"))
    }
    #[wasm_bindgen(js_name = sbMeshCluster)]
    pub fn sbMeshCluster(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshCluster"))
    }
    #[wasm_bindgen(js_name = sbMeshCollider)]
    pub fn sbMeshCollider(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshCollider"))
    }
    #[wasm_bindgen(js_name = sbMeshCollisionEnabled)]
    pub fn sbMeshCollisionEnabled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshCollisionEnabled"))
    }
    #[wasm_bindgen(js_name = sbMeshIndices)]
    pub fn sbMeshIndices(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshIndices"))
    }
    #[wasm_bindgen(js_name = sbMeshIsOriented)]
    pub fn sbMeshIsOriented(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshIsOriented"))
    }
    #[wasm_bindgen(js_name = sbMeshIsSkinned)]
    pub fn sbMeshIsSkinned(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshIsSkinned"))
    }
    #[wasm_bindgen(js_name = sbMeshOfCollider)]
    pub fn sbMeshOfCollider(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshOfCollider"))
    }
    #[wasm_bindgen(js_name = sbMeshVertices)]
    pub fn sbMeshVertices(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbMeshVertices"))
    }
    #[wasm_bindgen(js_name = sbNumAttachments)]
    pub fn sbNumAttachments(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumAttachments"))
    }
    #[wasm_bindgen(js_name = sbNumCells)]
    pub fn sbNumCells(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumCells"))
    }
    #[wasm_bindgen(js_name = sbNumClusters)]
    pub fn sbNumClusters(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumClusters"))
    }
    #[wasm_bindgen(js_name = sbNumDihedrals)]
    pub fn sbNumDihedrals(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumDihedrals"))
    }
    #[wasm_bindgen(js_name = sbNumEdges)]
    pub fn sbNumEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumEdges"))
    }
    #[wasm_bindgen(js_name = sbNumMeshes)]
    pub fn sbNumMeshes(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumMeshes"))
    }
    #[wasm_bindgen(js_name = sbNumParticles)]
    pub fn sbNumParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbNumParticles"))
    }
    #[wasm_bindgen(js_name = sbOrigin)]
    pub fn sbOrigin(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbOrigin"))
    }
    #[wasm_bindgen(js_name = sbParticleMass)]
    pub fn sbParticleMass(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticleMass"))
    }
    #[wasm_bindgen(js_name = sbParticlePosition)]
    pub fn sbParticlePosition(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticlePosition"))
    }
    #[wasm_bindgen(js_name = sbParticlePositions)]
    pub fn sbParticlePositions(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticlePositions"))
    }
    #[wasm_bindgen(js_name = sbParticleRadius)]
    pub fn sbParticleRadius(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticleRadius"))
    }
    #[wasm_bindgen(js_name = sbParticleRestPosition)]
    pub fn sbParticleRestPosition(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticleRestPosition"))
    }
    #[wasm_bindgen(js_name = sbParticleVelocities)]
    pub fn sbParticleVelocities(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticleVelocities"))
    }
    #[wasm_bindgen(js_name = sbParticleVelocity)]
    pub fn sbParticleVelocity(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbParticleVelocity"))
    }
    #[wasm_bindgen(js_name = sbPieces)]
    pub fn sbPieces(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbPieces"))
    }
    #[wasm_bindgen(js_name = sbResetForces)]
    pub fn sbResetForces(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbResetForces"))
    }
    #[wasm_bindgen(js_name = sbResetPlasticity)]
    pub fn sbResetPlasticity(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbResetPlasticity"))
    }
    #[wasm_bindgen(js_name = sbRestVolume)]
    pub fn sbRestVolume(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbRestVolume"))
    }
    #[wasm_bindgen(js_name = sbRootBody)]
    pub fn sbRootBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbRootBody"))
    }
    #[wasm_bindgen(js_name = sbSetAdditionalPgsIterations)]
    pub fn sbSetAdditionalPgsIterations(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetAdditionalPgsIterations"))
    }
    #[wasm_bindgen(js_name = sbSetClusterEdgeSoftness)]
    pub fn sbSetClusterEdgeSoftness(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetClusterEdgeSoftness"))
    }
    #[wasm_bindgen(js_name = sbSetClusterKinematicTarget)]
    pub fn sbSetClusterKinematicTarget(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetClusterKinematicTarget"))
    }
    #[wasm_bindgen(js_name = sbSetClusterPinned)]
    pub fn sbSetClusterPinned(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetClusterPinned"))
    }
    #[wasm_bindgen(js_name = sbSetClusterStiffnessScale)]
    pub fn sbSetClusterStiffnessScale(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetClusterStiffnessScale"))
    }
    #[wasm_bindgen(js_name = sbSetClusterTearResistance)]
    pub fn sbSetClusterTearResistance(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetClusterTearResistance"))
    }
    #[wasm_bindgen(js_name = sbSetEnabled)]
    pub fn sbSetEnabled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetEnabled"))
    }
    #[wasm_bindgen(js_name = sbSetMaterial)]
    pub fn sbSetMaterial(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetMaterial"))
    }
    #[wasm_bindgen(js_name = sbSetParticleKinematicTarget)]
    pub fn sbSetParticleKinematicTarget(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetParticleKinematicTarget"))
    }
    #[wasm_bindgen(js_name = sbSetParticlePinned)]
    pub fn sbSetParticlePinned(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetParticlePinned"))
    }
    #[wasm_bindgen(js_name = sbSetParticlePosition)]
    pub fn sbSetParticlePosition(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetParticlePosition"))
    }
    #[wasm_bindgen(js_name = sbSetParticleVelocity)]
    pub fn sbSetParticleVelocity(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetParticleVelocity"))
    }
    #[wasm_bindgen(js_name = sbSetSolver)]
    pub fn sbSetSolver(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetSolver"))
    }
    #[wasm_bindgen(js_name = sbSetUserData)]
    pub fn sbSetUserData(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetUserData"))
    }
    #[wasm_bindgen(js_name = sbSetVolumeFactor)]
    pub fn sbSetVolumeFactor(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSetVolumeFactor"))
    }
    #[wasm_bindgen(js_name = sbSolver)]
    pub fn sbSolver(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbSolver"))
    }
    #[wasm_bindgen(js_name = sbTearCell)]
    pub fn sbTearCell(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbTearCell"))
    }
    #[wasm_bindgen(js_name = sbTearEdge)]
    pub fn sbTearEdge(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbTearEdge"))
    }
    #[wasm_bindgen(js_name = sbTopologyVersion)]
    pub fn sbTopologyVersion(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbTopologyVersion"))
    }
    #[wasm_bindgen(js_name = sbUserData)]
    pub fn sbUserData(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbUserData"))
    }
    #[wasm_bindgen(js_name = sbVolumeFactor)]
    pub fn sbVolumeFactor(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbVolumeFactor"))
    }
    #[wasm_bindgen(js_name = sbVolumePreservationEnabled)]
    pub fn sbVolumePreservationEnabled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbVolumePreservationEnabled"))
    }
    #[wasm_bindgen(js_name = sbVolume)]
    pub fn sbVolume(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbVolume"))
    }
    #[wasm_bindgen(js_name = sbWakeUp)]
    pub fn sbWakeUp(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.sbWakeUp"))
    }
    #[wasm_bindgen(js_name = tear)]
    pub fn tear(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodySet.tear"))
    }
}

#[allow(non_snake_case)]
#[wasm_bindgen]
impl RawSoftBodyBuilder {
    #[wasm_bindgen(js_name = addEdges)]
    pub fn addEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.addEdges"))
    }
    #[wasm_bindgen(js_name = append)]
    pub fn append(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.append"))
    }
    #[wasm_bindgen(js_name = cellEdges)]
    pub fn cellEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.cellEdges"))
    }
    #[wasm_bindgen(js_name = clothAnisotropic)]
    pub fn clothAnisotropic() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.clothAnisotropic"))
    }
    #[wasm_bindgen(js_name = clothTube)]
    pub fn clothTube() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.clothTube"))
    }
    #[wasm_bindgen(js_name = cloth)]
    pub fn cloth() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.cloth"))
    }
    #[wasm_bindgen(js_name = cuboid)]
    pub fn cuboid() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.cuboid"))
    }
    #[wasm_bindgen(js_name = material)]
    pub fn material(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.material"))
    }
    #[wasm_bindgen(js_name = numParticles)]
    pub fn numParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.numParticles"))
    }
    #[wasm_bindgen(js_name = particlePositions)]
    pub fn particlePositions(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.particlePositions"))
    }
    #[wasm_bindgen(js_name = rope)]
    pub fn rope() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.rope"))
    }
    #[wasm_bindgen(js_name = setAdditionalPgsIterations)]
    pub fn setAdditionalPgsIterations(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setAdditionalPgsIterations"))
    }
    #[wasm_bindgen(js_name = setAdditionalSolverIterations)]
    pub fn setAdditionalSolverIterations(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftBodyBuilder.setAdditionalSolverIterations",
        ))
    }
    #[wasm_bindgen(js_name = setBendEdges)]
    pub fn setBendEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setBendEdges"))
    }
    #[wasm_bindgen(js_name = setCanSleep)]
    pub fn setCanSleep(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setCanSleep"))
    }
    #[wasm_bindgen(js_name = setCellModel)]
    pub fn setCellModel(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setCellModel"))
    }
    #[wasm_bindgen(js_name = setCells)]
    pub fn setCells(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setCells"))
    }
    #[wasm_bindgen(js_name = setDihedrals)]
    pub fn setDihedrals(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setDihedrals"))
    }
    #[wasm_bindgen(js_name = setDominanceGroup)]
    pub fn setDominanceGroup(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setDominanceGroup"))
    }
    #[wasm_bindgen(js_name = setEdgeSoftness)]
    pub fn setEdgeSoftness(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setEdgeSoftness"))
    }
    #[wasm_bindgen(js_name = setEdgeTearResistance)]
    pub fn setEdgeTearResistance(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setEdgeTearResistance"))
    }
    #[wasm_bindgen(js_name = setEdges)]
    pub fn setEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setEdges"))
    }
    #[wasm_bindgen(js_name = setGravityScale)]
    pub fn setGravityScale(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setGravityScale"))
    }
    #[wasm_bindgen(js_name = setLinearDamping)]
    pub fn setLinearDamping(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setLinearDamping"))
    }
    #[wasm_bindgen(js_name = setMass)]
    pub fn setMass(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setMass"))
    }
    #[wasm_bindgen(js_name = setMasses)]
    pub fn setMasses(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setMasses"))
    }
    #[wasm_bindgen(js_name = setMaterial)]
    pub fn setMaterial(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setMaterial"))
    }
    #[wasm_bindgen(js_name = setNoSurfaceCollider)]
    pub fn setNoSurfaceCollider(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setNoSurfaceCollider"))
    }
    #[wasm_bindgen(js_name = setOriented)]
    pub fn setOriented(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setOriented"))
    }
    #[wasm_bindgen(js_name = setParticleMass)]
    pub fn setParticleMass(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setParticleMass"))
    }
    #[wasm_bindgen(js_name = setParticleRadius)]
    pub fn setParticleRadius(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setParticleRadius"))
    }
    #[wasm_bindgen(js_name = setPinnedParticles)]
    pub fn setPinnedParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setPinnedParticles"))
    }
    #[wasm_bindgen(js_name = setPositions)]
    pub fn setPositions(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setPositions"))
    }
    #[wasm_bindgen(js_name = setSelfContacts)]
    pub fn setSelfContacts(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSelfContacts"))
    }
    #[wasm_bindgen(js_name = setShapeMatching)]
    pub fn setShapeMatching(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setShapeMatching"))
    }
    #[wasm_bindgen(js_name = setSkinCollision)]
    pub fn setSkinCollision(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSkinCollision"))
    }
    #[wasm_bindgen(js_name = setSkin)]
    pub fn setSkin(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSkin"))
    }
    #[wasm_bindgen(js_name = setSoftness)]
    pub fn setSoftness(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSoftness"))
    }
    #[wasm_bindgen(js_name = setSolver)]
    pub fn setSolver(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSolver"))
    }
    #[wasm_bindgen(js_name = setSurfaceCollider)]
    pub fn setSurfaceCollider(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSurfaceCollider"))
    }
    #[wasm_bindgen(js_name = setSurface)]
    pub fn setSurface(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setSurface"))
    }
    #[wasm_bindgen(js_name = setTensionOnly)]
    pub fn setTensionOnly(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setTensionOnly"))
    }
    #[wasm_bindgen(js_name = setVolumeFactor)]
    pub fn setVolumeFactor(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setVolumeFactor"))
    }
    #[wasm_bindgen(js_name = setVolumePreservation)]
    pub fn setVolumePreservation(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setVolumePreservation"))
    }
    #[wasm_bindgen(js_name = setWire)]
    pub fn setWire(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.setWire"))
    }
    #[wasm_bindgen(js_name = sphere)]
    pub fn sphere() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.sphere"))
    }
    #[wasm_bindgen(js_name = surfaceDihedrals)]
    pub fn surfaceDihedrals(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.surfaceDihedrals"))
    }
    #[wasm_bindgen(js_name = surfaceEdges)]
    pub fn surfaceEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.surfaceEdges"))
    }
    #[wasm_bindgen(js_name = translated)]
    pub fn translated(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.translated"))
    }
    #[wasm_bindgen(js_name = trimesh)]
    pub fn trimesh() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.trimesh"))
    }
    #[wasm_bindgen(js_name = volumetric)]
    pub fn volumetric() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyBuilder.volumetric"))
    }
}

#[allow(non_snake_case)]
#[wasm_bindgen]
impl RawSoftBodyMaterial {
    #[wasm_bindgen(js_name = tears)]
    pub fn tears(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tears"))
    }
    #[wasm_bindgen(js_name = uniform)]
    pub fn uniform() -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.uniform"))
    }
    #[wasm_bindgen(getter = bendDampingRatio)]
    pub fn bendDampingRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.bendDampingRatio"))
    }
    #[wasm_bindgen(setter = bendDampingRatio)]
    pub fn set_bendDampingRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.bendDampingRatio"))
    }
    #[wasm_bindgen(getter = bendFrequency)]
    pub fn bendFrequency(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.bendFrequency"))
    }
    #[wasm_bindgen(setter = bendFrequency)]
    pub fn set_bendFrequency(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.bendFrequency"))
    }
    #[wasm_bindgen(getter = deformationDamping)]
    pub fn deformationDamping(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.deformationDamping"))
    }
    #[wasm_bindgen(setter = deformationDamping)]
    pub fn set_deformationDamping(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.deformationDamping"))
    }
    #[wasm_bindgen(getter = edgeDampingRatio)]
    pub fn edgeDampingRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgeDampingRatio"))
    }
    #[wasm_bindgen(setter = edgeDampingRatio)]
    pub fn set_edgeDampingRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgeDampingRatio"))
    }
    #[wasm_bindgen(getter = edgeFrequency)]
    pub fn edgeFrequency(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgeFrequency"))
    }
    #[wasm_bindgen(setter = edgeFrequency)]
    pub fn set_edgeFrequency(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgeFrequency"))
    }
    #[wasm_bindgen(getter = edgePlasticCreep)]
    pub fn edgePlasticCreep(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticCreep"))
    }
    #[wasm_bindgen(setter = edgePlasticCreep)]
    pub fn set_edgePlasticCreep(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticCreep"))
    }
    #[wasm_bindgen(getter = edgePlasticFlow)]
    pub fn edgePlasticFlow(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticFlow"))
    }
    #[wasm_bindgen(setter = edgePlasticFlow)]
    pub fn set_edgePlasticFlow(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticFlow"))
    }
    #[wasm_bindgen(getter = edgePlasticMax)]
    pub fn edgePlasticMax(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticMax"))
    }
    #[wasm_bindgen(setter = edgePlasticMax)]
    pub fn set_edgePlasticMax(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticMax"))
    }
    #[wasm_bindgen(getter = edgePlasticYield)]
    pub fn edgePlasticYield(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticYield"))
    }
    #[wasm_bindgen(setter = edgePlasticYield)]
    pub fn set_edgePlasticYield(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.edgePlasticYield"))
    }
    #[wasm_bindgen(getter = elasticDampingRatio)]
    pub fn elasticDampingRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.elasticDampingRatio"))
    }
    #[wasm_bindgen(setter = elasticDampingRatio)]
    pub fn set_elasticDampingRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.elasticDampingRatio"))
    }
    #[wasm_bindgen(getter = interiorStrength)]
    pub fn interiorStrength(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.interiorStrength"))
    }
    #[wasm_bindgen(setter = interiorStrength)]
    pub fn set_interiorStrength(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.interiorStrength"))
    }
    #[wasm_bindgen(getter = maxTearsPerStep)]
    pub fn maxTearsPerStep(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.maxTearsPerStep"))
    }
    #[wasm_bindgen(setter = maxTearsPerStep)]
    pub fn set_maxTearsPerStep(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.maxTearsPerStep"))
    }
    #[wasm_bindgen(getter = minPiece)]
    pub fn minPiece(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.minPiece"))
    }
    #[wasm_bindgen(setter = minPiece)]
    pub fn set_minPiece(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.minPiece"))
    }
    #[wasm_bindgen(getter = plasticCreep)]
    pub fn plasticCreep(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticCreep"))
    }
    #[wasm_bindgen(setter = plasticCreep)]
    pub fn set_plasticCreep(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticCreep"))
    }
    #[wasm_bindgen(getter = plasticMax)]
    pub fn plasticMax(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticMax"))
    }
    #[wasm_bindgen(setter = plasticMax)]
    pub fn set_plasticMax(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticMax"))
    }
    #[wasm_bindgen(getter = plasticYield)]
    pub fn plasticYield(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticYield"))
    }
    #[wasm_bindgen(setter = plasticYield)]
    pub fn set_plasticYield(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.plasticYield"))
    }
    #[wasm_bindgen(getter = poissonRatio)]
    pub fn poissonRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.poissonRatio"))
    }
    #[wasm_bindgen(setter = poissonRatio)]
    pub fn set_poissonRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.poissonRatio"))
    }
    #[wasm_bindgen(getter = shapeMatchingDampingRatio)]
    pub fn shapeMatchingDampingRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.shapeMatchingDampingRatio"))
    }
    #[wasm_bindgen(setter = shapeMatchingDampingRatio)]
    pub fn set_shapeMatchingDampingRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.shapeMatchingDampingRatio"))
    }
    #[wasm_bindgen(getter = shapeMatchingFrequency)]
    pub fn shapeMatchingFrequency(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.shapeMatchingFrequency"))
    }
    #[wasm_bindgen(setter = shapeMatchingFrequency)]
    pub fn set_shapeMatchingFrequency(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.shapeMatchingFrequency"))
    }
    #[wasm_bindgen(getter = tearForce)]
    pub fn tearForce(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearForce"))
    }
    #[wasm_bindgen(setter = tearForce)]
    pub fn set_tearForce(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearForce"))
    }
    #[wasm_bindgen(getter = tearSmoothing)]
    pub fn tearSmoothing(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearSmoothing"))
    }
    #[wasm_bindgen(setter = tearSmoothing)]
    pub fn set_tearSmoothing(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearSmoothing"))
    }
    #[wasm_bindgen(getter = tearStrain)]
    pub fn tearStrain(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearStrain"))
    }
    #[wasm_bindgen(setter = tearStrain)]
    pub fn set_tearStrain(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.tearStrain"))
    }
    #[wasm_bindgen(getter = volumeDampingRatio)]
    pub fn volumeDampingRatio(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.volumeDampingRatio"))
    }
    #[wasm_bindgen(setter = volumeDampingRatio)]
    pub fn set_volumeDampingRatio(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.volumeDampingRatio"))
    }
    #[wasm_bindgen(getter = volumeFrequency)]
    pub fn volumeFrequency(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.volumeFrequency"))
    }
    #[wasm_bindgen(setter = volumeFrequency)]
    pub fn set_volumeFrequency(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.volumeFrequency"))
    }
    #[wasm_bindgen(getter = youngModulus)]
    pub fn youngModulus(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyMaterial.youngModulus"))
    }
    #[wasm_bindgen(setter = youngModulus)]
    pub fn set_youngModulus(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodyMaterial.youngModulus"))
    }
}

#[allow(non_snake_case)]
#[wasm_bindgen]
impl RawSoftRecoverySettings {
    #[wasm_bindgen(getter = authoredVelocityMargin)]
    pub fn authoredVelocityMargin(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.authoredVelocityMargin",
        ))
    }
    #[wasm_bindgen(setter = authoredVelocityMargin)]
    pub fn set_authoredVelocityMargin(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.authoredVelocityMargin",
        ))
    }
    #[wasm_bindgen(getter = crossBodyDetection)]
    pub fn crossBodyDetection(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossBodyDetection"))
    }
    #[wasm_bindgen(setter = crossBodyDetection)]
    pub fn set_crossBodyDetection(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossBodyDetection"))
    }
    #[wasm_bindgen(getter = crossBodyExpelGate)]
    pub fn crossBodyExpelGate(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossBodyExpelGate"))
    }
    #[wasm_bindgen(setter = crossBodyExpelGate)]
    pub fn set_crossBodyExpelGate(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossBodyExpelGate"))
    }
    #[wasm_bindgen(getter = crossingRepulsionGuide)]
    pub fn crossingRepulsionGuide(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.crossingRepulsionGuide",
        ))
    }
    #[wasm_bindgen(setter = crossingRepulsionGuide)]
    pub fn set_crossingRepulsionGuide(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.crossingRepulsionGuide",
        ))
    }
    #[wasm_bindgen(getter = crossingRepulsionSelfGuide)]
    pub fn crossingRepulsionSelfGuide(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.crossingRepulsionSelfGuide",
        ))
    }
    #[wasm_bindgen(setter = crossingRepulsionSelfGuide)]
    pub fn set_crossingRepulsionSelfGuide(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.crossingRepulsionSelfGuide",
        ))
    }
    #[wasm_bindgen(getter = crossingRepulsion)]
    pub fn crossingRepulsion(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossingRepulsion"))
    }
    #[wasm_bindgen(setter = crossingRepulsion)]
    pub fn set_crossingRepulsion(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.crossingRepulsion"))
    }
    #[wasm_bindgen(getter = detectionMotionGating)]
    pub fn detectionMotionGating(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.detectionMotionGating"))
    }
    #[wasm_bindgen(setter = detectionMotionGating)]
    pub fn set_detectionMotionGating(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.detectionMotionGating"))
    }
    #[wasm_bindgen(getter = edgeSpeculation)]
    pub fn edgeSpeculation(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.edgeSpeculation"))
    }
    #[wasm_bindgen(setter = edgeSpeculation)]
    pub fn set_edgeSpeculation(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.edgeSpeculation"))
    }
    #[wasm_bindgen(getter = edgeStandDown)]
    pub fn edgeStandDown(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.edgeStandDown"))
    }
    #[wasm_bindgen(setter = edgeStandDown)]
    pub fn set_edgeStandDown(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.edgeStandDown"))
    }
    #[wasm_bindgen(getter = invertedCellDetection)]
    pub fn invertedCellDetection(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.invertedCellDetection"))
    }
    #[wasm_bindgen(setter = invertedCellDetection)]
    pub fn set_invertedCellDetection(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.invertedCellDetection"))
    }
    #[wasm_bindgen(getter = overlapConstraintPace)]
    pub fn overlapConstraintPace(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapConstraintPace"))
    }
    #[wasm_bindgen(setter = overlapConstraintPace)]
    pub fn set_overlapConstraintPace(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapConstraintPace"))
    }
    #[wasm_bindgen(getter = overlapConstraints)]
    pub fn overlapConstraints(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapConstraints"))
    }
    #[wasm_bindgen(setter = overlapConstraints)]
    pub fn set_overlapConstraints(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapConstraints"))
    }
    #[wasm_bindgen(getter = overlapEdgeStandDown)]
    pub fn overlapEdgeStandDown(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapEdgeStandDown"))
    }
    #[wasm_bindgen(setter = overlapEdgeStandDown)]
    pub fn set_overlapEdgeStandDown(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapEdgeStandDown"))
    }
    #[wasm_bindgen(getter = overlapKeptDepth)]
    pub fn overlapKeptDepth(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapKeptDepth"))
    }
    #[wasm_bindgen(setter = overlapKeptDepth)]
    pub fn set_overlapKeptDepth(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapKeptDepth"))
    }
    #[wasm_bindgen(getter = overlapMultiVolume)]
    pub fn overlapMultiVolume(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapMultiVolume"))
    }
    #[wasm_bindgen(setter = overlapMultiVolume)]
    pub fn set_overlapMultiVolume(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapMultiVolume"))
    }
    #[wasm_bindgen(getter = overlapNormalPush)]
    pub fn overlapNormalPush(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapNormalPush"))
    }
    #[wasm_bindgen(setter = overlapNormalPush)]
    pub fn set_overlapNormalPush(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapNormalPush"))
    }
    #[wasm_bindgen(getter = overlapPatchConstraints)]
    pub fn overlapPatchConstraints(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.overlapPatchConstraints",
        ))
    }
    #[wasm_bindgen(setter = overlapPatchConstraints)]
    pub fn set_overlapPatchConstraints(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.overlapPatchConstraints",
        ))
    }
    #[wasm_bindgen(getter = overlapPatience)]
    pub fn overlapPatience(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapPatience"))
    }
    #[wasm_bindgen(setter = overlapPatience)]
    pub fn set_overlapPatience(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapPatience"))
    }
    #[wasm_bindgen(getter = overlapProgressMargin)]
    pub fn overlapProgressMargin(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapProgressMargin"))
    }
    #[wasm_bindgen(setter = overlapProgressMargin)]
    pub fn set_overlapProgressMargin(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapProgressMargin"))
    }
    #[wasm_bindgen(getter = overlapRigid)]
    pub fn overlapRigid(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapRigid"))
    }
    #[wasm_bindgen(setter = overlapRigid)]
    pub fn set_overlapRigid(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapRigid"))
    }
    #[wasm_bindgen(getter = overlapSelfRegions)]
    pub fn overlapSelfRegions(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSelfRegions"))
    }
    #[wasm_bindgen(setter = overlapSelfRegions)]
    pub fn set_overlapSelfRegions(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSelfRegions"))
    }
    #[wasm_bindgen(getter = overlapSkinVolume)]
    pub fn overlapSkinVolume(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSkinVolume"))
    }
    #[wasm_bindgen(setter = overlapSkinVolume)]
    pub fn set_overlapSkinVolume(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSkinVolume"))
    }
    #[wasm_bindgen(getter = overlapSkipSelfTangled)]
    pub fn overlapSkipSelfTangled(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.overlapSkipSelfTangled",
        ))
    }
    #[wasm_bindgen(setter = overlapSkipSelfTangled)]
    pub fn set_overlapSkipSelfTangled(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawSoftRecoverySettings.overlapSkipSelfTangled",
        ))
    }
    #[wasm_bindgen(getter = overlapSplit)]
    pub fn overlapSplit(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSplit"))
    }
    #[wasm_bindgen(setter = overlapSplit)]
    pub fn set_overlapSplit(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.overlapSplit"))
    }
    #[wasm_bindgen(getter = recoveryPace)]
    pub fn recoveryPace(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.recoveryPace"))
    }
    #[wasm_bindgen(setter = recoveryPace)]
    pub fn set_recoveryPace(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.recoveryPace"))
    }
    #[wasm_bindgen(getter = selfCrossingDetection)]
    pub fn selfCrossingDetection(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.selfCrossingDetection"))
    }
    #[wasm_bindgen(setter = selfCrossingDetection)]
    pub fn set_selfCrossingDetection(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.selfCrossingDetection"))
    }
    #[wasm_bindgen(getter = selfStandDown)]
    pub fn selfStandDown(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftRecoverySettings.selfStandDown"))
    }
    #[wasm_bindgen(setter = selfStandDown)]
    pub fn set_selfStandDown(&mut self, _value: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawSoftRecoverySettings.selfStandDown"))
    }
}

#[allow(non_snake_case)]
#[wasm_bindgen]
impl RawSoftBodyTearEvent {
    #[wasm_bindgen(js_name = clusterSplitCluster)]
    pub fn clusterSplitCluster(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.clusterSplitCluster"))
    }
    #[wasm_bindgen(js_name = clusterSplitKeepsProxy)]
    pub fn clusterSplitKeepsProxy(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.clusterSplitKeepsProxy"))
    }
    #[wasm_bindgen(js_name = clusterSplitProxy)]
    pub fn clusterSplitProxy(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.clusterSplitProxy"))
    }
    #[wasm_bindgen(js_name = clusterSplitSoftBody)]
    pub fn clusterSplitSoftBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.clusterSplitSoftBody"))
    }
    #[wasm_bindgen(js_name = clusterSplitSource)]
    pub fn clusterSplitSource(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.clusterSplitSource"))
    }
    #[wasm_bindgen(js_name = insertedParticles)]
    pub fn insertedParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.insertedParticles"))
    }
    #[wasm_bindgen(js_name = movedJointFrom)]
    pub fn movedJointFrom(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.movedJointFrom"))
    }
    #[wasm_bindgen(js_name = movedJointTo)]
    pub fn movedJointTo(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.movedJointTo"))
    }
    #[wasm_bindgen(js_name = movedJoint)]
    pub fn movedJoint(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.movedJoint"))
    }
    #[wasm_bindgen(js_name = numClusterSplits)]
    pub fn numClusterSplits(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.numClusterSplits"))
    }
    #[wasm_bindgen(js_name = numMovedJoints)]
    pub fn numMovedJoints(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.numMovedJoints"))
    }
    #[wasm_bindgen(js_name = numPieces)]
    pub fn numPieces(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.numPieces"))
    }
    #[wasm_bindgen(js_name = particleDestinationBody)]
    pub fn particleDestinationBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.particleDestinationBody"))
    }
    #[wasm_bindgen(js_name = particleDestinationIndex)]
    pub fn particleDestinationIndex(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.particleDestinationIndex"))
    }
    #[wasm_bindgen(js_name = pieceClusters)]
    pub fn pieceClusters(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.pieceClusters"))
    }
    #[wasm_bindgen(js_name = pieceParticles)]
    pub fn pieceParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.pieceParticles"))
    }
    #[wasm_bindgen(js_name = pieceSoftBody)]
    pub fn pieceSoftBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.pieceSoftBody"))
    }
    #[wasm_bindgen(js_name = removedEdges)]
    pub fn removedEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.removedEdges"))
    }
    #[wasm_bindgen(js_name = seeds)]
    pub fn seeds(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.seeds"))
    }
    #[wasm_bindgen(js_name = softBody)]
    pub fn softBody(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.softBody"))
    }
    #[wasm_bindgen(js_name = splitParticles)]
    pub fn splitParticles(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.splitParticles"))
    }
    #[wasm_bindgen(js_name = tornCells)]
    pub fn tornCells(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.tornCells"))
    }
    #[wasm_bindgen(js_name = tornEdges)]
    pub fn tornEdges(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawSoftBodyTearEvent.tornEdges"))
    }
}

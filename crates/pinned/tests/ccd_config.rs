//! `CcdConfig`'s command-line form, `POLICY:MODE`, which the CLI and the evaluation tools read.
use rapier3d::dynamics::{CcdPersistentContactPolicy, CcdRelativeMotion};
use rapier_pinned::{version_table, CcdConfig, ParseCcdConfigError};

#[test]
fn every_released_version_reads_back_from_its_policy_and_mode() {
    for entry in version_table() {
        let config = CcdConfig::version(entry.number).unwrap();
        let text = config.to_string();
        assert_eq!(
            text.parse::<CcdConfig>(),
            Ok(config),
            "version {}",
            entry.number
        );
    }
    assert_eq!(
        "5:bounded".parse::<CcdConfig>(),
        Ok(CcdConfig::new(
            CcdRelativeMotion::Bounded,
            CcdPersistentContactPolicy::KeepSide
        ))
    );
    let bounded_casts = CcdConfig::new(
        CcdRelativeMotion::BoundedCasts,
        CcdPersistentContactPolicy::KeepSide,
    );
    assert_eq!("5:bounded-casts".parse::<CcdConfig>(), Ok(bounded_casts));
    assert_eq!(bounded_casts.to_string(), "5:bounded-casts");
}

#[test]
fn a_malformed_config_is_a_typed_error() {
    let err = |text: &str| text.parse::<CcdConfig>().unwrap_err();
    assert_eq!(err("5"), ParseCcdConfigError::Form("5".into()));
    assert!(matches!(
        err("x:on"),
        ParseCcdConfigError::PolicyNotANumber { .. }
    ));
    assert!(matches!(
        err("300:on"),
        ParseCcdConfigError::PolicyNotANumber { .. }
    ));
    assert!(matches!(
        err("9:on"),
        ParseCcdConfigError::UnknownPolicy { number: 9, .. }
    ));
    assert_eq!(
        err("3:maybe"),
        ParseCcdConfigError::RelativeMotion("maybe".into())
    );
    // The message names what was given.
    assert!(err("9:on").to_string().starts_with("policy 9: "));
}

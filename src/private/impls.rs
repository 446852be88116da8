//! What every generated type has in the runtime, written once here as a macro that the
//! generated code invokes with one line a type (issue 28: the generated Rust is declarations,
//! the logic is the runtime's): the type's entry in the catalogue of generated types
//! (`__type_entry!`). `checked` says the type has `garde` rules, `shaped` that it is valid by
//! construction (enums, constants, format types). The validator's part, `__contract!`, is in
//! `__validation`.

/// The catalogue entry (`typed::TypeEntry`) of a generated type: its schema, pointer and public
/// path, and the functions behind the entry's methods, each for the type.
#[doc(hidden)]
#[macro_export]
macro_rules! __type_entry {
    ($ty:ident, $schema:literal, $pointer:literal, $path:literal, checked) => {
        $crate::__type_entry!(@entry $ty, $schema, $pointer, $path,
            check_validated, written_validated, poked_validated, read_validated)
    };
    ($ty:ident, $schema:literal, $pointer:literal, $path:literal, shaped) => {
        $crate::__type_entry!(@entry $ty, $schema, $pointer, $path,
            check_shape, written_shape, poked_shape, read_shaped)
    };
    (@entry $ty:ident, $schema:literal, $pointer:literal, $path:literal,
        $check:ident, $written:ident, $poked:ident, $read_valid:ident) => {
        $crate::__private::typed::entry($schema, $pointer, $path, $crate::__private::typed::Hooks {
            check: $crate::__private::typed::$check::<$ty>,
            round_trip: $crate::__private::typed::round_trip::<$ty>,
            relay: $crate::__private::typed::relay::<$ty>,
            skim: $crate::__private::typed::skimmed::<$ty>,
            read_valid: $crate::__private::typed::$read_valid::<$ty>,
            written: $crate::__private::typed::$written::<$ty>,
            #[cfg(feature = "testing")]
            poked: $crate::__private::typed::$poked::<$ty>,
            #[cfg(feature = "testing")]
            transcode: $crate::__private::typed::transcoded::<$ty>,
            #[cfg(feature = "schemars")]
            json_schema: $crate::__private::typed::json_schema::<$ty>,
        })
    };
}

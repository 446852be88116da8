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
            #[cfg(feature = "testing")]
            round_trip: $crate::__private::typed::round_trip::<$ty>,
            #[cfg(feature = "testing")]
            relay: $crate::__private::typed::relay::<$ty>,
            #[cfg(feature = "testing")]
            skim: $crate::__private::typed::skimmed::<$ty>,
            #[cfg(feature = "testing")]
            read_valid: $crate::__private::typed::$read_valid::<$ty>,
            #[cfg(feature = "testing")]
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

/// A string enum's text conversions and read, written once for every generated enum of unit
/// variants: `Display` writes the wire name; `FromStr`, `TryFrom<&str>` and `TryFrom<String>` take
/// exactly a wire name and refuse anything else with an [`crate::InvalidValue`] that names the
/// type (its public name) and the allowed values; `Deserialize` reads a string (anything else is
/// refused as serde refuses a wrong type, expecting "one of `a`, `b`").
#[doc(hidden)]
#[macro_export]
macro_rules! __string_enum {
    ($ty:ident, $public:literal, [$($variant:ident = $wire:literal),+ $(,)?]) => {
        impl $ty {
            /// The wire names, in the schema's order.
            const WIRE_NAMES: &'static [&'static str] = &[$($wire),+];
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match *self {
                    $(Self::$variant => f.write_str($wire),)+
                }
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::InvalidValue;
            fn from_str(value: &str) -> ::std::result::Result<Self, $crate::InvalidValue> {
                match value {
                    $($wire => ::std::result::Result::Ok(Self::$variant),)+
                    _ => ::std::result::Result::Err($crate::__private::invalid_value(
                        $public,
                        value,
                        &$crate::__private::one_of_rule(Self::WIRE_NAMES),
                    )),
                }
            }
        }

        impl ::std::convert::TryFrom<&str> for $ty {
            type Error = $crate::InvalidValue;
            fn try_from(value: &str) -> ::std::result::Result<Self, $crate::InvalidValue> {
                value.parse()
            }
        }

        impl ::std::convert::TryFrom<::std::string::String> for $ty {
            type Error = $crate::InvalidValue;
            fn try_from(value: ::std::string::String) -> ::std::result::Result<Self, $crate::InvalidValue> {
                value.parse()
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<__D: ::serde::Deserializer<'de>>(deserializer: __D) -> ::std::result::Result<Self, __D::Error> {
                struct __Visitor;
                impl ::serde::de::Visitor<'_> for __Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        $crate::__private::expecting_one_of(f, $ty::WIRE_NAMES)
                    }
                    fn visit_str<__E: ::serde::de::Error>(self, value: &str) -> ::std::result::Result<$ty, __E> {
                        match value {
                            $($wire => ::std::result::Result::Ok($ty::$variant),)+
                            _ => ::std::result::Result::Err(__E::unknown_variant(value, $ty::WIRE_NAMES)),
                        }
                    }
                }
                deserializer.deserialize_str(__Visitor)
            }
        }
    };
}

/// The rule a string enum's `FromStr` names: `it must be one of "a", "b"`.
pub fn one_of_rule(wire: &[&str]) -> String {
    let quoted: Vec<String> = wire.iter().map(|w| format!("{w:?}")).collect();
    format!("it must be one of {}", quoted.join(", "))
}

/// What a string enum's read expects: ``one of `a`, `b` ``.
pub fn expecting_one_of(f: &mut std::fmt::Formatter<'_>, wire: &[&str]) -> std::fmt::Result {
    f.write_str("one of ")?;
    for (i, name) in wire.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "`{}`", name.escape_default())?;
    }
    Ok(())
}

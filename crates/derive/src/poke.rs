//! `#[derive(Poke)]` (test support, under the library's `testing` feature): walks a value's
//! fields in order so that the soundness property can change one place the way only Rust code
//! can (a non-finite float, an `extra` member named like a field).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::attrs::{field_serde, json_name};

/// The `Poke` impl of a struct, a newtype or an enum.
pub(crate) fn expand(item: &DeriveInput) -> syn::Result<TokenStream> {
    let body = match &item.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => {
                let mut declared = Vec::new();
                let mut steps = Vec::new();
                let mut extra = None;
                for field in &fields.named {
                    let Some(name) = &field.ident else { continue };
                    let serde = field_serde(&field.attrs)?;
                    if serde.flatten {
                        extra = Some(name);
                        continue;
                    }
                    declared.push(json_name(name, &serde));
                    steps.push(quote!(::jerry_contracts::__private::poke::Poke::poke(&mut self.#name, tweak);));
                }
                let extra = extra.map(|extra| {
                    quote!(::jerry_contracts::__private::poke::extra(&mut self.#extra, &[#(#declared),*], tweak);)
                });
                quote!(#(#steps)* #extra)
            }
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                quote!(::jerry_contracts::__private::poke::Poke::poke(&mut self.0, tweak);)
            }
            _ => quote!(let _ = tweak;),
        },
        Data::Enum(data) => {
            let arms: Vec<TokenStream> = data
                .variants
                .iter()
                .filter(|v| matches!(&v.fields, Fields::Unnamed(f) if f.unnamed.len() == 1))
                .map(|v| {
                    let variant = &v.ident;
                    quote!(Self::#variant(value) => ::jerry_contracts::__private::poke::Poke::poke(value, tweak),)
                })
                .collect();
            if arms.is_empty() {
                quote!(let _ = tweak;)
            } else {
                quote! {
                    #[allow(unreachable_patterns)]
                    match self {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        }
        Data::Union(_) => return Err(syn::Error::new_spanned(item, "a union")),
    };
    let ident = &item.ident;
    Ok(quote! {
        impl ::jerry_contracts::__private::poke::Poke for #ident {
            fn poke(&mut self, tweak: &mut ::jerry_contracts::__private::poke::Tweak) {
                #body
            }
        }
    })
}

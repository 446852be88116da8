//! Test support: `jerry_contracts::__private::poke::Poke` for every generated type, under the `testing`
//! feature. It walks a value's fields in order so that the soundness property can change one
//! place the way only Rust code can (a non-finite float, an `extra` member named like a field).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Fields, Item};

/// The impls for the generated items (structs, newtypes and typify's enums).
pub fn impls(file: &syn::File) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for item in &file.items {
        match item {
            Item::Struct(item) => {
                let ident = &item.ident;
                let body = match &item.fields {
                    Fields::Named(fields) => {
                        let mut declared = Vec::new();
                        let mut steps = Vec::new();
                        for field in &fields.named {
                            let Some(name) = &field.ident else { continue };
                            if name == "extra" {
                                continue;
                            }
                            let text = name.to_string();
                            declared.push(text.strip_prefix("r#").unwrap_or(&text).to_owned());
                            steps.push(quote!(::jerry_contracts::__private::poke::Poke::poke(&mut self.#name, tweak);));
                        }
                        let has_extra = fields.named.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == "extra"));
                        let extra = has_extra.then(
                            || quote!(::jerry_contracts::__private::poke::extra(&mut self.extra, &[#(#declared),*], tweak);),
                        );
                        quote!(#(#steps)* #extra)
                    }
                    Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                        quote!(::jerry_contracts::__private::poke::Poke::poke(&mut self.0, tweak);)
                    }
                    _ => quote!(let _ = tweak;),
                };
                out.push(poke_impl(ident, body));
            }
            Item::Enum(item) => {
                let ident = &item.ident;
                let arms: Vec<TokenStream> = item
                    .variants
                    .iter()
                    .filter(|v| matches!(&v.fields, Fields::Unnamed(f) if f.unnamed.len() == 1))
                    .map(|v| {
                        let variant = &v.ident;
                        quote!(Self::#variant(value) => ::jerry_contracts::__private::poke::Poke::poke(value, tweak),)
                    })
                    .collect();
                let body = if arms.is_empty() {
                    quote!(let _ = tweak;)
                } else {
                    quote! {
                        #[allow(unreachable_patterns)]
                        match self {
                            #(#arms)*
                            _ => {}
                        }
                    }
                };
                out.push(poke_impl(ident, body));
            }
            _ => {}
        }
    }
    out
}

fn poke_impl(ident: &syn::Ident, body: TokenStream) -> TokenStream {
    quote! {
        #[cfg(feature = "testing")]
        impl ::jerry_contracts::__private::poke::Poke for #ident {
            fn poke(&mut self, tweak: &mut ::jerry_contracts::__private::poke::Tweak) {
                #body
            }
        }
    }
}

#pragma once
// "Layers of this model": the layer stack of a model's config as a figure —
// one cell per layer, coloured by how it encodes position (RoPE with its
// base and scaling, NoPE, ALiBi, …), as tall as its attention reaches (full,
// chunked, sliding), with the count of each kind in the legend. Built from a
// ModelReading (model_config.hpp), drawn and exported like every figure.
//
//   const ModelReading reading = read_model_config_text(text);
//   fig::Figure f = layer_stack_figure(reading, tr);  // tr: the figure's language

#include "app/common/i18n.hpp"
#include "app/model/model_config.hpp"
#include "app/plot/figure.hpp"

namespace poslab::app {

/// Figure id "layers". Bar heights: full 1, chunked 0.7, sliding 0.45, a
/// layer that is not attention (Mamba, linear attention) 0.2; one series per
/// LayerGroup (legend: its encoding, its attention, its count). A config
/// without the layer count gives one cell for "every layer"; a model whose
/// encoding poslab cannot tell, an empty plot that says so.
fig::Figure layer_stack_figure(const ModelReading& reading, const Translator& tr);

/// The legend entry of one group, in tr's language: "RoPE b = 500,000 ·
/// llama3 ×16 · chunks of 8,192 — 36 layers".
std::string layer_group_label(const LayerGroup& group, const Translator& tr);

}  // namespace poslab::app

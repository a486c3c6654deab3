// Writes the payload of a valid item: the element string or the Digital Link
// URI (barcodeText), and the HRI. Only called for items without errors.
#pragma once

#include <string>
#include <string_view>

namespace codepayload {

class ItemContext;

// (<pk>)<value>(<ai>)<value>... in sequence, '(' and ')' in values as ^040 / ^041.
void writeElementString(const ItemContext& item, std::string& out);

// <stem>/<pk>/<value>[/<qualifier>/<value>...][?<attributes>&<extensions>&linkType=..&context=..]
void writeDigitalLink(const ItemContext& item, std::string_view normalisedStem, std::string& out);

// (<ai>)<value> for every AI, in the order of barcodeText.
void writeHri(const ItemContext& item, bool digitalLink, std::string& out);

}  // namespace codepayload

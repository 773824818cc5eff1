#include "otf2_event_record.h"

namespace collwrap {

const DecodedAttribute* RecordAttributes::find(OTF2_AttributeRef id, OTF2_Type type) const {
  for (const DecodedAttribute& a : decoded_)
    if (a.id == id) return a.type == type ? &a : nullptr;
  return nullptr;
}

// With libotf2's list, presence is tested first: asking for a missing attribute is an error
// libotf2 would report.

bool RecordAttributes::calling_context(OTF2_AttributeRef id, std::uint32_t& value) const {
  if (list_) {
    OTF2_CallingContextRef ref;
    if (!OTF2_AttributeList_TestAttributeByID(list_, id) ||
        OTF2_AttributeList_GetCallingContextRef(list_, id, &ref) != OTF2_SUCCESS)
      return false;
    value = ref;
    return true;
  }
  const DecodedAttribute* a = find(id, OTF2_TYPE_CALLING_CONTEXT);
  if (a) value = static_cast<std::uint32_t>(a->value);
  return a != nullptr;
}

bool RecordAttributes::int32(OTF2_AttributeRef id, std::int32_t& value) const {
  if (list_)
    return OTF2_AttributeList_TestAttributeByID(list_, id) &&
           OTF2_AttributeList_GetInt32(list_, id, &value) == OTF2_SUCCESS;
  const DecodedAttribute* a = find(id, OTF2_TYPE_INT32);
  if (a) value = static_cast<std::int32_t>(static_cast<std::uint32_t>(a->value));
  return a != nullptr;
}

bool RecordAttributes::uint32(OTF2_AttributeRef id, std::uint32_t& value) const {
  if (list_)
    return OTF2_AttributeList_TestAttributeByID(list_, id) &&
           OTF2_AttributeList_GetUint32(list_, id, &value) == OTF2_SUCCESS;
  const DecodedAttribute* a = find(id, OTF2_TYPE_UINT32);
  if (a) value = static_cast<std::uint32_t>(a->value);
  return a != nullptr;
}

}  // namespace collwrap

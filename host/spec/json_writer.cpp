// JSON text output through RapidJSON's Writer and PrettyWriter (two-space indent).
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "host/spec/writers.h"

namespace jobhost {

std::string toJson(const rapidjson::Value& value, bool pretty) {
  rapidjson::StringBuffer buffer;
  if (pretty) {
    rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
    writer.SetIndent(' ', 2);
    value.Accept(writer);
  } else {
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    value.Accept(writer);
  }
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace jobhost

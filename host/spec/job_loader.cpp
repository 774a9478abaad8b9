// Job files: format detection, splitting arrays and Lists into one SourceDoc per job (re-keying
// positions to job-relative paths), and decoding each job.
#include "host/spec/job_loader.h"

#include <algorithm>
#include <charconv>

#include "host/spec/job_decode.h"
#include "host/spec/yaml_doc.h"

namespace jobhost {
namespace {

using Result = Expected<std::vector<JobDocument>>;

bool looksLikeJson(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

// One SourceDoc per element of the array at `arrayPath` ("" for a root array, "items" for a List).
// Positions are moved over in one pass: "items[3].spec.queue" becomes "spec.queue" of element 3.
std::vector<SourceDoc> splitArray(const SourceDoc& whole, const rapidjson::Value& array,
                                  const std::string& arrayPath) {
  std::vector<SourceDoc> parts(array.Size());
  for (rapidjson::SizeType i = 0; i < array.Size(); ++i) {
    parts[i].file = whole.file;
    parts[i].doc.CopyFrom(array[i], parts[i].doc.GetAllocator());
  }
  const std::string prefix = arrayPath + "[";
  for (const auto& [path, pos] : whole.positions) {
    if (path.compare(0, prefix.size(), prefix) != 0) continue;
    size_t close = path.find(']', prefix.size());
    size_t index = 0;
    auto [end, ec] = std::from_chars(path.data() + prefix.size(), path.data() + path.size(), index);
    if (ec != std::errc() || close == std::string::npos || end != path.data() + close || index >= parts.size())
      continue;  // a key that merely starts like "items[", not an element path
    std::string rest = path.substr(close + 1);
    if (!rest.empty() && rest[0] == '.') rest.erase(0, 1);
    parts[index].positions.emplace(std::move(rest), pos);
  }
  return parts;
}

bool isList(const rapidjson::Value& root) {
  if (!root.IsObject()) return false;
  auto kind = root.FindMember("kind");
  if (kind == root.MemberEnd() || !kind->value.IsString()) return false;
  std::string_view name(kind->value.GetString(), kind->value.GetStringLength());
  return name == "List" || name == "JobList";
}

// Splits one parsed document into job documents; an error when a List's items is not a list.
Expected<std::vector<SourceDoc>> jobSources(SourceDoc doc) {
  std::vector<SourceDoc> out;
  const rapidjson::Value& root = doc.doc;
  if (root.IsArray()) return splitArray(doc, root, "");
  if (isList(root)) {
    auto items = root.FindMember("items");
    if (items == root.MemberEnd() || items->value.IsNull()) return out;
    if (!items->value.IsArray())
      return Expected<std::vector<SourceDoc>>::failure(doc.where("items") + ": items: must be a list of jobs");
    return splitArray(doc, items->value, "items");
  }
  out.push_back(std::move(doc));
  return out;
}

// An object of a kind other than Job (kind a non-empty string), or a Kubernetes Job (batch/v1):
// moved into `others`. A Job of any other apiVersion is decoded, so a wrong one is reported, and so
// is a Volcano "job" of another spelling (kinds are case-sensitive: the decoder names the kind).
bool takeOther(SourceDoc& source, std::vector<OtherObject>* others) {
  std::string kind = stringAt(source.doc, {"kind"});
  std::string apiVersion = stringAt(source.doc, {"apiVersion"});
  if (isJobInOtherCase(kind) && apiVersion.starts_with("batch.volcano.sh/")) return false;
  if (others == nullptr || kind.empty() || (kind == "Job" && !apiVersion.starts_with("batch/"))) return false;
  others->push_back({std::move(apiVersion), std::move(kind), stringAt(source.doc, {"metadata", "name"}), std::move(source)});
  return true;
}

}  // namespace

bool isVolcanoQueue(const OtherObject& o) {
  return o.kind == "Queue" && o.apiVersion.starts_with("scheduling.volcano.sh/") && !o.name.empty();
}

Result parseJobs(std::string_view text, std::string file, std::vector<OtherObject>* others) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) text.remove_prefix(kByteOrderMark.size());

  std::vector<SourceDoc> docs;
  if (looksLikeJson(text)) {
    auto doc = parseJsonDoc(text, file);
    if (!doc) return Result::failure(doc.error());
    docs.push_back(std::move(*doc));
  } else {
    auto parsed = parseYamlDocs(text, file);
    if (!parsed) return Result::failure(parsed.error());
    docs = std::move(*parsed);
  }

  std::vector<JobDocument> jobs;
  for (auto& doc : docs) {
    auto sources = jobSources(std::move(doc));
    if (!sources) return Result::failure(sources.error());
    for (auto& source : *sources) {
      if (takeOther(source, others)) continue;
      std::vector<SchemaFinding> schemaFindings;
      auto job = decodeJob(source, schemaFindings);
      if (!job) return Result::failure(job.error());
      jobs.push_back({std::move(*job), std::move(source), std::move(schemaFindings)});
    }
  }
  const bool declaresQueue = others != nullptr && std::any_of(others->begin(), others->end(), isVolcanoQueue);
  if (jobs.empty() && !declaresQueue) {
    std::string found;
    if (others != nullptr)
      for (const auto& o : *others) found += (found.empty() ? "; it holds only " : ", ") + o.kind + " \"" + o.name + "\"";
    return Result::failure(file + ": no job found; expected a Volcano Job (batch.volcano.sh/v1alpha1)" + found);
  }
  return jobs;
}

Result loadJobs(const std::string& path, std::vector<OtherObject>* others) {
  auto text = readFile(path);
  if (!text) return Result::failure(text.error());
  return parseJobs(*text, path, others);
}

}  // namespace jobhost

// Decoding a Volcano Job (batch.volcano.sh/v1alpha1) from a SourceDoc: metadata, the whole spec
// of the job model, and the status when present. Errors point at file:line:column and field path.
#pragma once

#include "host/common/expected.h"
#include "host/common/source_doc.h"
#include "host/spec/schema_finding.h"
#include "jobhost/job.h"

namespace jobhost {

/// Whether `kind` spells "Job" in another case ("job", "JOB"): kinds are case-sensitive, so such
/// an object is refused as a Job with a message that says so, not passed over as another kind.
bool isJobInOtherCase(std::string_view kind);

/// Decodes the document root as a Job. Requires apiVersion batch.volcano.sh/v1alpha1 and kind Job.
/// metadata.namespace defaults to "default". Keys the model lacks are kept in the nearest struct
/// that has an `unknown` store (Job, ObjectMeta, JobSpec, TaskSpec, PodSpec, Container, Volume,
/// VolumeMount, ResourceRequirements); in fully modelled structs (env, ports, policies, ...) an
/// unknown key is an error; in `status` it is ignored, and a status that does not decode is left
/// empty (the API server drops a created Job's status; the controller rewrites it).
/// Under `spec`, a value of the wrong JSON type and such an unknown key go to `schemaFindings`
/// (the API server refuses the job for them; the field is left unset) and decoding goes on.
/// Any other problem fails: "file:line:col: <field path>: <what is expected>".
Expected<Job> decodeJob(const SourceDoc& source, std::vector<SchemaFinding>& schemaFindings);

}  // namespace jobhost

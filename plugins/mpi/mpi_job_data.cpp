// Building and checking the mpi plugin's per-job data: the hostfile is mpi_hostfile.h's, the same
// builder ComponentBuild uses.
#include "mpi_job_data.h"

#include "mpi_hostfile.h"
#include "mpi_options.h"

namespace mpi {

bool MpiJobData::matches(const jobhost::Job& job, const jobhost::PluginArgs& a) const {
  return a == args && source.matches(job) && slots == slotsPerHost(job, effectiveOptions(a));
}

std::shared_ptr<const MpiJobData> mpiJobData(jobhost::JobContext& ctx) {
  return jobhost::jobCache<MpiJobData>(
      ctx, [&](const MpiJobData& d) { return d.matches(ctx.job(), ctx.args()); },
      [&] {
        const jobhost::Job& job = ctx.job();
        const MpiOptions options = effectiveOptions(ctx.args());
        MpiJobData d;
        d.args = ctx.args();
        d.source = jobhost::volcano::HostsSource::of(job);
        d.slots = slotsPerHost(job, options);
        if (auto cm = hostfileConfigMap(job, options)) d.hostfile.configMaps.push_back(std::move(*cm));
        return d;
      });
}

}  // namespace mpi

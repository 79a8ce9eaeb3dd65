// libyaml (Debian's libyaml-dev to build, libyaml-0-2 to run): the YAML 1.1 parser whose events
// HeadwayService composes into the nodes its configuration reader walks.
#include <yaml.h>

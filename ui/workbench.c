/*
 * workbench — opening the workbench views (see workbench.h).
 */
#include "ui/workbench.h"

#include "ui/display.h"

bool workbench_command(view *v, int argc, char **argv)
{
    const char *c = argv[0];
    /* In the what-if view, index changes go to its scratch copy. */
    if (v->ops == &view_whatif_ops &&
        (display_is_cmd(c, "create_index") || display_is_cmd(c, "delete_index")))
        return v->ops->command(v, argc, argv);
    const view_ops *ops = display_is_cmd(c, "entities") ? &view_entities_ops
                          : display_is_cmd(c, "doctor") ? &view_doctor_ops
                          : display_is_cmd(c, "what_if") ? &view_whatif_ops : NULL;
    if (!ops)
        return false;
    if (argc > 2) {
        display_error("usage: :%s [TABLE]", c);
        return true;
    }
    cond_arg a = { 0 };
    if (argc == 2)
        a.table = argv[1];
    else if (v->ops->context)
        v->ops->context(v, &a);
    if (!a.table) {
        display_error(":%s works on a table: open one first, or :%s TABLE", c, c);
        return true;
    }
    display_push(ops, &a);
    return true;
}

"""The organiser role: a group "Organisers" holding ``decks.add_event`` (who may create events).

Django creates model permissions in its post_migrate signal, after every migration has run, so on a
fresh database ``add_event`` does not exist yet here: the content type and the permission are made
with get_or_create (post_migrate then finds them and skips them). Running it twice changes nothing;
reversing it deletes the group (and so its memberships) but keeps Django's own permission.
"""

from django.db import migrations

GROUP = "Organisers"
APP_LABEL, MODEL, CODENAME = "decks", "event", "add_event"


def organisers_group_create(apps, schema_editor):
    db = schema_editor.connection.alias
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _ = ContentType.objects.using(db).get_or_create(app_label=APP_LABEL, model=MODEL)
    permission, _ = Permission.objects.using(db).get_or_create(
        content_type=content_type, codename=CODENAME, defaults={"name": "Can add event"}
    )
    group, _ = Group.objects.using(db).get_or_create(name=GROUP)
    group.permissions.add(permission)


def organisers_group_delete(apps, schema_editor):
    db = schema_editor.connection.alias
    apps.get_model("auth", "Group").objects.using(db).filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(organisers_group_create, organisers_group_delete)]

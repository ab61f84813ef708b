import { withTheme, type ThemeProps } from '@rjsf/core';
import {
  BaseInputTemplate,
  CheckboxWidget,
  DescriptionFieldTemplate,
  ErrorListTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  FieldTemplate,
  ObjectFieldTemplate,
  SelectWidget,
  TitleFieldTemplate,
} from './templates.tsx';
import { foyerFields, foyerWidgets } from './fields.tsx';

export const foyerTheme: ThemeProps = {
  templates: {
    BaseInputTemplate,
    DescriptionFieldTemplate,
    ErrorListTemplate,
    FieldErrorTemplate,
    FieldHelpTemplate,
    FieldTemplate,
    ObjectFieldTemplate,
    TitleFieldTemplate,
  },
  widgets: { CheckboxWidget, SelectWidget, checkbox: CheckboxWidget, select: SelectWidget, ...foyerWidgets },
  fields: { ...foyerFields },
};

/** The RJSF form with Foyer's theme. */
export const FoyerForm = withTheme(foyerTheme);
